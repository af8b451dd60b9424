/**
 * Spanish questions against an English ranking corpus: the most common question and topic words are
 * replaced by English ones before keyword, title and dense matching. Titles also carry Spanish names
 * (titles-data.ts), so the original query is matched too. A word-for-word gloss is crude, but topical
 * questions are mostly content words ("ansiedad", "perdón", "ser salvo"), and those carry the ranking.
 */
import { words } from "./tokenizer.js";
import { wordTable } from "../../word-table.js";

// Accent-folded Spanish -> English. Grouped by theme; plural and common verb forms listed where they
// differ, because the English stemmer does not know Spanish endings.
const LEXICON: Readonly<Record<string, string>> = wordTable(Object.fromEntries(
  (
    // question and function words (most become English stopwords, which is the point)
    "que:what como:how cuando:when era:was fue:was eran:were fueron:were historia:story donde:where porque:because quien:who quienes:who cual:which puedo:can puede:can " +
    "debo:should debe:should hacer:do hago:do ser:be estar:be soy:am es:is esta:is hay:there tengo:have tiene:has " +
    "dice:says dicen:say biblia:bible versiculo:verse versiculos:verses capitulo:chapter sobre:about acerca:about " +
    "mi:my mis:my tu:your su:his nuestro:our yo:i nosotros:we ellos:they cuando:when despues:after antes:before " +
    "siempre:always nunca:never todo:all todos:all nada:nothing otra:another otro:another mas:more muy:very " +
    // God, Christ, church
    "dios:god senor:lord jesucristo:jesus cristo:christ espiritu:spirit santo:holy padre:father hijo:son " +
    "iglesia:church apostol:apostle apostoles:apostles discipulo:disciple discipulos:disciples profeta:prophet " +
    "profetas:prophets angel:angel angeles:angels diablo:devil satanas:satan demonio:demon demonios:demons " +
    "trinidad:trinity bautismo:baptism bautizo:baptized bautizar:baptize cena:supper oracion:prayer orar:pray " +
    "oraciones:prayers ayuno:fasting adorar:worship adoracion:worship alabanza:praise alabar:praise " +
    // salvation and doctrine
    "salvo:saved salva:saves salvos:saved salvar:save salvacion:salvation salvador:savior pecado:sin pecados:sins " +
    "pecador:sinner pecadores:sinners perdon:forgiveness perdonar:forgive perdona:forgive perdonado:forgiven " +
    "gracia:grace fe:faith creer:believe creo:believe esperanza:hope amor:love amar:love ama:loves " +
    "arrepentimiento:repentance arrepentirse:repent arrepiento:repent justicia:righteousness justo:righteous " +
    "juicio:judgment ley:law mandamiento:commandment mandamientos:commandments pacto:covenant " +
    "resurreccion:resurrection resucito:rose cruz:cross crucifixion:crucifixion sangre:blood sacrificio:sacrifice " +
    "cielo:heaven cielos:heavens infierno:hell eterna:eternal eterno:eternal vida:life muerte:death morir:die " +
    "muertos:dead nacer:born nacido:born nuevo:new nueva:new creacion:creation reino:kingdom venida:coming " +
    "profecia:prophecy fin:end mundo:world tierra:earth santidad:holiness obediencia:obedience obedecer:obey " +
    // life topics
    "ansiedad:anxiety preocupacion:worry preocupado:worried preocupaciones:worries miedo:fear temor:fear " +
    "depresion:depression tristeza:sorrow triste:sad duelo:grief luto:mourning consuelo:comfort soledad:loneliness " +
    "solo:alone sufrimiento:suffering sufrir:suffer dolor:pain enfermedad:sickness enfermo:sick sanidad:healing " +
    "sanar:heal curar:heal sano:healed milagro:miracle milagros:miracles paz:peace gozo:joy alegria:joy " +
    "paciencia:patience humildad:humility orgullo:pride soberbia:pride ira:anger enojo:anger odio:hate " +
    "envidia:envy celos:jealousy mentira:lie mentir:lie verdad:truth sabiduria:wisdom tentacion:temptation " +
    "tentaciones:temptations fuerza:strength fortaleza:strength valor:courage animo:courage cansado:weary " +
    "descanso:rest matrimonio:marriage casarse:marry divorcio:divorce esposa:wife esposo:husband marido:husband " +
    "mujer:woman hombre:man familia:family hijos:children ninos:children padres:parents madre:mother " +
    "amigo:friend amigos:friends amistad:friendship enemigo:enemy enemigos:enemies projimo:neighbor " +
    "dinero:money riqueza:riches riquezas:riches pobre:poor pobres:poor diezmo:tithe ofrenda:offering " +
    "trabajo:work generosidad:generosity dar:give servir:serve sexo:sex pureza:purity adulterio:adultery " +
    "borrachera:drunkenness alcohol:alcohol chisme:gossip suicidio:suicide aborto:abortion guerra:war " +
    "gobierno:government autoridad:authority unidad:unity agradecimiento:thankfulness gratitud:gratitude " +
    "contentamiento:contentment proposito:purpose voluntad:will dudas:doubts duda:doubt buen:good buena:good bueno:good " +
    "sana:heals sanan:heal escucharon:heard oyeron:heard sin:without " +
    // everyday questions: feelings, family, vices, society (English concept names where windows carry them as tags)
    "enojado:angry enojada:angry ansioso:anxious ansiosa:anxious sola:alone llorar:weep lagrimas:tears angustia:anguish " +
    "culpa:guilt verguenza:shame venganza:vengeance rencor:grudge odiar:hate humilde:humble codicia:covetousness " +
    "avaricia:greed generoso:generous herida:wound dano:harm traicion:betrayal infiel:unfaithful pelea:quarrel " +
    "peleas:quarrels discutir:argue mentiroso:liar ladron:thief robar:steal pereza:laziness flojo:lazy vicio:vice " +
    "adiccion:addiction alcoholico:alcoholic borracho:drunkard borrachos:drunkards drogas:drugs apuestas:gambling " +
    "loteria:lottery tatuaje:tattoo tatuajes:tattoos cuerpo:body salud:health medico:physician pornografia:pornography " +
    "masturbacion:masturbation homosexualidad:homosexuality hija:daughter hijas:daughters mama:mother papa:father " +
    "hermano:brother hermana:sister abuela:grandmother abuelo:grandfather amiga:friend vecino:neighbor pareja:partner " +
    "soltero:single soltera:single casado:married casada:married adolescente:teenager adolescentes:teenagers bebe:baby " +
    "muere:dies murio:died muerto:dead fallecido:died jefe:boss deuda:debt deudas:debts impuestos:taxes " +
    "violencia:violence abuso:abuse maltrato:abuse racismo:racism evolucion:evolution lenguas:tongues ayunar:fast " +
    "pecar:sin rezar:pray bautizarse:baptized confesar:confess salvarse:saved perdone:forgive perdonarme:forgive " +
    "apocalipsis:revelation anticristo:antichrist rapto:rapture idolos:idols brujeria:sorcery horoscopo:astrologers " +
    // stories
    "diluvio:flood arca:ark torre:tower mar:sea rojo:red pastor:shepherd oveja:sheep ovejas:sheep perdida:lost " +
    "perdido:lost prodigo:prodigal sembrador:sower semilla:seed samaritano:samaritan ballena:whale pez:fish " +
    "gigante:giant leones:lions foso:den horno:furnace zarza:bush ardiente:burning nacimiento:birth pesebre:manger " +
    "panes:loaves peces:fishes agua:water vino:wine bodas:wedding tumba:tomb ascension:ascension pentecostes:pentecost"
  )
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split(":") as [string, string]),
));

// Spanish words that are also English words (or Spanish-looking English ones): glossed only in a query
// that is Spanish by its other words, so "the pastor's fear" or "a solo" is never rewritten.
const AMBIGUOUS = new Set(["era", "es", "mi", "tu", "su", "yo", "fin", "mar", "solo", "pastor", "valor", "ira", "alcohol", "angel", "dar", "fe", "sano", "vino", "cena", "mas", "como", "que", "hay", "dice", "santo", "padre", "todo", "nada", "animo", "mujer", "papa", "mama", "sola", "bebe", "sin"]);

// Words that mark a query as Spanish: function words with no English homograph.
const MARKERS = new Set(["la", "de", "que", "como", "cuando", "donde", "porque", "quien", "cual", "el", "los", "las", "del", "una", "por", "para", "con", "puedo", "dice", "mi", "es", "esta", "sobre", "biblia", "dios", "senor", "y"]);

// Words spelt alike in both languages ("crucifixion", "alcohol") say nothing about the language.
const isGloss = (w: string) => LEXICON[w] !== undefined && LEXICON[w] !== w;

/** Whether a query reads as Spanish: accents or Spanish punctuation, two marker words, or a word only Spanish glosses. */
export function looksSpanish(query: string): boolean {
  const ws = words(query);
  return /[áéíóúñ¿¡]/i.test(query) || ws.filter((w) => MARKERS.has(w)).length >= 2 || ws.some((w) => isGloss(w) && !AMBIGUOUS.has(w));
}

/**
 * The query with Spanish words glossed in English, or the query itself when nothing was glossed.
 * `spanish`: already decided (the caller read the original query; names glossed since may have removed its accents).
 */
export function glossSpanish(query: string, spanish = looksSpanish(query)): string {
  const ws = words(query);
  if (!spanish) return query;
  let changed = false;
  const out = ws.map((w) => {
    const en = LEXICON[w];
    if (!en || en === w) return w;
    changed = true;
    return en;
  });
  return changed ? out.join(" ") : query;
}
