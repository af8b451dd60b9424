import type { LanguageRules } from "./types.js";

const MEDIOS = "(?:pastillas|pildoras|medicinas|medicamentos|remedios|calmantes|somniferos|pastillas para dormir|clonazepam|paracetamol|paracetamoles|ibuprofenos?|rivotril|veneno|cloro|lejia|raticida|veneno para ratas)";
const PERSONA = "(?:hij[oa]|bebe|espos[oa]|marido|padre|madre|papa|mama|herman[oa]|novi[oa]|amig[oa]|abuel[oa]|mejor amig[oa])";
const AGRESOR =
  "(?:padrastro|madrastra|padre|papa|madre|mama|tio|tia|primo|prima|hermano|hermana|abuelo|esposo|marido|pareja|novio|ex|pastor|sacerdote|cura|maestro|profesor|entrenador|jefe|vecino|hijo|hija|nieto)";

export const ES: LanguageRules = {
  lang: "es",
  kinds: {
    ideacion: [
      "(?:pa|pa q|para) que (?:seguir viviendo|sigo viviendo|seguir)|(?:pa|pa q) que vivir|q sentido tiene vivir",
      "matarme",
      "(?:me )?(?:quiero|voy a|pienso|quisiera|deseo) (?:matar(?:me)?|suicidar(?:me)?)",
      "quitarme la vida",
      "me (?:quiero|voy a) quitar la vida",
      "(?:acabar|terminar) con (?:mi vida|todo|esto|mi existencia)",
      "(?:quiero|quisiera|deseo|prefiero|ganas de|ganas d) (?:morir\\w*|estar muert[oa]|desaparecer|dejar de existir|no existir)",
      "me quiero morir",
      "(?:que )?ganas de morir\\w*",
      "(?:no|ya no) quiero (?:vivir|seguir viviendo|seguir|despertar|estar aqui|existir)",
      "no (?:tengo|encuentro|veo|hay) (?:razones|motivos|ganas|razon|motivo) (?:para|de) (?:vivir|seguir)",
      "(?:dormir|dormirme) y no (?:despertar|volver a despertar)",
      "(?:quiero|quisiera) (?:solo )?(?:dormir|dormirme) para siempre",
      "mejor (?:muert[oa]|sin mi)",
      "mejor me (?:muero|mato|muera)",
      "(?:estar|ser)(?:ian|an|ia|a) mejor sin mi",
      "(?:mi|este es mi) ultimo mensaje",
      "(?:adios|me despido) (?:a todos|de todos|para siempre|mundo|de todo el mundo)",
      "ya (?:tome|tomé) la decision",
      "(?:me odio|odio mi vida)",
      "(?:tengo )?miedo de lo que (?:me )?pueda hacer",
      "(?:ahorcarme|colgarme|envenenarme|cortarme las venas|pegarme un tiro|dispararme)",
      "hacerme algo",
      "ya (?:compre|tengo|consegui|junte|guarde) (?:las|la|el|mis|unas|una) (?:pastillas|cuerda|soga|pistola|veneno|navaja)",
      "(?:irme|ir|salir|desaparecer) de este mundo",
      "(?:hacer|cometer) una locura",
      "(?:no le (?:encuentro|veo)|sin) sentido a (?:nada|la vida|vivir|mi vida)",
      "(?:quiero|quisiera|me quiero|deseo) irme con",
      "(?:forma|manera|modo) (?:menos dolorosa|mas rapida|mas facil|indolora|sin dolor) de (?:morir|matarme|suicidarme|hacerlo|acabar)",
    ],
    noPuedoMas: [
      "no (?:puedo|aguanto|soporto) mas",
      "ya no (?:puedo|aguanto|soporto)",
      "no (?:puedo|quiero) seguir(?! (?:a |al |con |leyendo|creyendo|en |la |el ))",
      "no veo (?:salida|otra salida|ninguna salida)",
      "estoy (?:harto|harta|cansad[oa]) de (?:vivir|todo|la vida)",
    ],
    carga: [
      "(?:soy|me siento) (?:una|un) (?:carga|estorbo|peso)",
      "(?:todos|mi familia|ellos|mis hijos|el mundo) (?:estarian|estaran|estarian) mejor sin mi",
      "nadie (?:me )?(?:extranaria|echaria de menos|notaria|lloraria|extrañaria)",
      "nadie se (?:daria|va a dar|daria ni) cuenta si (?:yo )?(?:no estuviera|me fuera|desapareciera|me muriera|muriera|me mato)",
      "(?:manana|pronto|esta noche) ya no (?:voy a estar|estare)(?! (?:en|aqui en|a|al|con|para|porque|por|trabajando|disponible))",
    ],
    preparativos: [
      "(?:le deje|les deje|regale|le regale|les regale) (?:todas )?mis cosas",
      "(?:regale|regalando|estoy regalando|he regalado|di) (?:todas )?mis cosas",
      "ya no (?:las|los|lo|la|me) (?:voy a|van a) (?:necesitar|hacer falta)",
      "cartas (?:\\w+ ){0,4}para despedirme",
      "(?:me estoy despidiendo|ya me despedi) de (?:todos|mi familia|mis hijos)",
    ],
    medios: [
      "(?:tengo|compre|consegui|guarde|prepare) (?:la|una|el|un|las|mis) (?:cuerda|soga|pistola|arma|navaja|cuchilla|pastillas|veneno)(?: \\w+)? (?:lista|listo|listas|preparad[oa]s?|aqui|para mi|conmigo)",
      `compre (?:\\w+ )?${MEDIOS}(?: \\w+)?(?: \\w+)? (?:para mi|es para mi)`,
      "(?:estoy|ando) (?:en|arriba de|sobre|encima de) (?:el|la|un|una) (?:puente|azotea|techo|cornisa|vias del tren|orilla del edificio)",
      "(?:me voy a|voy a|quiero|pienso) (?:tirar|aventar|lanzar|arrojar) (?:de|del|al|por|desde|a las|a los|a la|bajo|debajo de|delante de|frente a) (?:un |el |la |una )?(?:puente|edificio|azotea|techo|balcon|ventana|tren|metro|vias|piso)",
      "(?:tirarme|aventarme|lanzarme|arrojarme) (?:de|del|al|por|desde|a las|a los|a la|bajo|debajo de|delante de|frente a) (?:un |el |la |una )?(?:puente|edificio|azotea|techo|balcon|ventana|tren|metro|camion|vias|piso)",
      `cuant[oa]s (?:\\w+ )?${MEDIOS} (?:para morir|son mortales|se necesitan para)`,
    ],
    sobredosis: [
      `(?:me )?(?:tome|trague|bebi) (?:todas|todos|un frasco de|una caja de|un monton de|muchas|\\d+) (?:las |los |de |mis )?(?:\\w+ )?(?:${MEDIOS}|pastillas)`,
      `(?:me )?(?:tome|trague|bebi) (?:el |la )?(?:veneno|cloro|lejia|raticida)`,
    ],
    autolesion: [
      "(?:hacerme|me hago|me hice) dano",
      "autolesi\\w*",
      "(?:cortarme|me corto|me estoy cortando|me corte)",
      "me quemo (?:los|la|el)",
      "(?:me estoy|estoy|sigo|he estado) (?:haciendo|haciendome) dano|haciendome dano",
      "me (?:hice|hago|he hecho|estoy haciendo) (?:cortes|cortadas|heridas|quemaduras)",
    ],
    /** Trastornos de la alimentacion: vomitar, no comer, odiar el cuerpo. */
    alimentacion: [
      "vomito despues de (?:cada |las |comer|la comida)|me (?:hago|provoco) (?:el )?vomit\\w*",
      "no (?:como|he comido) (?:nada )?(?:desde hace|hace|en) (?:\\w+ )?dias",
      "(?:me siento|me veo|sigo sintiendome|me creo|estoy) (?:muy |tan )?gorda",
      "odio mi cuerpo",
      "(?:soy|estoy) (?:anorexica|bulimica)",
    ],
    panico: [
      "(?:me dan|me da|tengo|estoy teniendo|tuve) (?:un |unos )?ataques? de panico",
      "(?:estoy teniendo|me esta dando|me dio) un ataque de (?:panico|ansiedad)",
      "no puedo respirar",
      "siento que me (?:muero|voy a morir|ahogo)",
    ],
    /** Alguien mas en peligro ahora: "mi amiga dice que se va a matar esta noche". */
    otroEnPeligro: [
      "se (?:va|van|iba) a (?:matar|suicidar|quitar la vida|ahorcar)",
      "(?:quiere|queria|dice que quiere) (?:matarse|suicidarse|morirse|quitarse la vida)",
      "se quiere (?:matar|suicidar|morir)",
      "(?:dejo|ha dejado|dejado) de tomar (?:sus|mis) (?:medicinas|pastillas|medicamentos)",
      "(?:le|les) (?:pega|pegan|golpea|golpean|maltrata|maltratan|pegaba|golpeaba) a mi (?:mama|madre|hermano|hermana|papa|hij[oa]|abuel[oa])",
    ],
    sentimientos: [
      "(?:estoy|me siento|ando) (?:muy |tan |tanto |super |bien |demasiado )*(?:deprimid[oa]|desesperad[oa]|sin esperanza|vaci[oa]|destrozad[oa]|sol[oa] y|con ganas de morir)",
    ],
    duelo: [
      "(?:perdi|perdimos|tuve|he tenido) (?:a mi bebe|a nuestro bebe|un aborto|el bebe|mi embarazo)",
      `(?:mi|nuestro|nuestra) ${PERSONA} (?:murio|fallecio|se fue|nacio muert[oa]|se suicido|se mato|se quito la vida)`,
    ],
    abuso: [
      "me (?:abuso|abusa|abusaron|abusan|abusaba|violo|violaron|viola|violaba|pega|pegan|pegaba|golpea|golpean|golpeaba|maltrata|maltratan|maltrataba|lastima|lastimaba|amenaza|ahorca|encierra|encierran|encerro)",
      "(?:abuso|abusaron|abusa|abusaba) (?:sexualmente )?de mi",
      "(?:fui|he sido|soy|estoy siendo|sigo siendo) (?:abusad[oa]|violad[oa]|maltratad[oa]|golpead[oa]|agredid[oa])",
      "(?:abusad[oa]|violad[oa]) (?:sexualmente )?por",
      `(?:tengo|le tengo) miedo (?:de|a) mi ${AGRESOR}`,
      "mi \\w+(?: \\w+)? me (?:toca|tocaba|toco|manosea|manoseaba)",
      "me (?:toca|tocaba|toco|manosea|manoseaba) (?:sin|cuando|en mis|mis partes|las partes|de noche|en la noche|a escondidas|donde no)",
      "me (?:obliga|obligo|obligaba|obligan|fuerza|forzo|forzaba) a (?:tener (?:sexo|relaciones)|acostarme|hacer cosas)",
      "no estoy a salvo en (?:mi )?casa",
      "miedo de (?:volver|ir) a casa",
      "(?:si lo dejo|si la dejo|si me voy|si me separo|si lo denuncio|si hablo) me (?:mata|va a matar|matara)",
      "(?:dice|dijo|amenaza) (?:que|con que) me (?:va a matar|matara|mata)",
      "me va a matar",
      "me (?:drogaron|drogo)",
      // Control del dinero y del cuidado, sobre todo de los mayores: "mi hijo se queda con mi pension".
      "(?:se queda con|me quita|me roba|controla|me quitan|me roban|se lleva) (?:mi|mis|toda mi) (?:pension|dinero|jubilacion|sueldo|tarjeta)",
      "no me deja (?:ir al medico|ver al medico|ver a un medico|salir|ver a mi|hablar con|comer|llamar)",
    ],
    palabrasDeNinos: [
      "(?:me mete|me metio|me pone|me puso) (?:la )?mano",
      "(?:entra|se mete|viene) (?:a|en) mi (?:cuarto|cama|habitacion) (?:de noche|en la noche|por la noche|cuando|y me)",
      "(?:mi \\w+|el|ella) me hace (?:cosas|dano)",
      "(?:dice que es|dijo que es|es nuestro) (?:un |nuestro )?secreto",
      "(?:dice|me dijo) que no (?:le )?(?:diga|cuente)",
      "me toca (?:mis partes|ahi abajo|donde no)",
    ],
    voces: [
      "(?:las|unas) voces (?:me )?(?:dicen|mandan|piden|ordenan|obligan)",
      "(?:escucho|oigo) (?:voces|una voz)",
      "una voz (?:me )?(?:dice|manda|pide|ordena)",
      "(?:dios|el diablo|satanas|un demonio|los demonios) (?:me )?(?:dijo|dice|pide|manda|ordena) que (?:me )?(?:mate|lastime|corte|sacrifique|tire)",
      "(?:tengo )?demonios (?:dentro de mi|en mi)",
    ],
    posparto: [
      "(?:mi bebe|el bebe|mis hijos) (?:estaria|estarian|estaria) mejor sin mi",
      "(?:pensamientos de|ganas de|miedo de) (?:hacerle dano|lastimar|matar) (?:a )?mi bebe",
      "depresion (?:posparto|post parto)",
    ],
    acoso: [
      "me hacen (?:bullying|buling|acoso)",
      "(?:sufro|sufro de) (?:bullying|acoso)",
      "me (?:acosan|molestan|pegan) en (?:la escuela|el colegio|clase)",
    ],
    recaida: [
      "(?:reca[ií]|volvi a (?:beber|consumir|drogarme|tomar))",
      "tuve una recaida",
    ],
    trata: [
      "(?:me )?(?:quitaron|quito|tienen|se quedaron con|retienen) (?:mi |el )?(?:pasaporte|papeles|documentos|mis papeles|mis documentos)",
      "me (?:obligan|obliga|forzaron) a (?:trabajar|prostituirme|acostarme con)",
    ],
  },
  mentions: ["violencia (?:domestica|sexual|intrafamiliar|de genero)", "se (?:mato|suicido|ahorco|quito la vida)", "sobredosis", "cartas? de despedida"],
  help: ["(?:por favor |porfa )?(?:ayuda|ayudame|ayudenme|auxilio|socorro|necesito ayuda)(?: por favor| porfa| ya| urgente)?"],
  cryWords:
    "duelo luto abuso abusada abusado violacion violada violado deprimida deprimido depresion desesperada desesperado desesperanza " +
    "triste tristeza sola solo soledad miedo panico ansiedad angustia angustiada angustiado sufrimiento dolor suicidio cortarme " +
    "autolesion maltrato maltratada golpeada aborto perdida destrozada destrozado sobredosis",
  cryFiller: "estoy me siento muy tan tanto tanta fui soy yo y ayuda ayudame por favor mucho mucha en de un una hoy ahora todavia siempre dios",
  lastGoodbye: ["adios(?: para siempre)?"],
};
