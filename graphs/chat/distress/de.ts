import type { LanguageRules } from "./types.js";

const MITTEL = "(?:tabletten|pillen|schlaftabletten|medikamente|schmerztabletten|packung|gift|tabl)";

export const DE: LanguageRules = {
  lang: "de",
  kinds: {
    gedanken: [
      "mich (?:umbringen|umzubringen|zu toten)",
      "mir das leben (?:nehmen|zu nehmen)",
      "(?:will|mochte|moechte) (?:einfach |nur |doch |halt |eigentlich )+(?:sterben|tot sein|nicht mehr leben)",
      "(?:will|mochte|moechte|werde|wurde gern|wurde gerne) (?:nicht mehr leben|sterben|mich umbringen|mich toten|verschwinden|tot sein)",
      "nicht mehr leben",
      "lebensmude",
      "(?:mach|mache|machen) (?:ich )?(?:heute|heut|jetzt|bald)? ?(?:nacht |abend )?schluss",
      "schluss machen mit (?:allem|meinem leben|dem leben)",
      "(?:einschlafen|schlafen) und nicht (?:mehr )?aufwachen",
      "(?:tschuss|lebewohl|lebt wohl|leb wohl|auf wiedersehen) (?:an alle|alle|ihr alle|fur immer|welt|zusammen)",
      "(?:meine|das ist meine) letzte nachricht",
      "ich hasse mich",
      "(?:tabletten|pillen|schlaftabletten|medikamente) (?:gesammelt|gehortet|gekauft|besorgt|gebunkert)",
      "nie (?:mehr |wieder )?aufwachen|nicht mehr aufwachen",
      "(?:hat )?(?:alles )?keinen sinn mehr",
      "schmerzlos\\w* (?:sterben|art zu sterben|methode|weg)",
    ],
    essstorung: ["(?:ich esse|esse) (?:seit \\w+ \\w+ |seit \\w+ )?nichts", "(?:immer noch|viel) zu dick", "(?:kotze|erbreche|ubergebe) mich nach", "hasse meinen korper"],
    panik: ["panikattacke", "(?:bekomme|kriege|krieg) keine luft", "ich sterbe gleich"],
    andere: [
      "(?:dass|das) (?:sie|er) sich (?:\\w+ ){0,3}(?:umbringt|umbringen will|umbringen wird|toten will|das leben nehmen will)",
      "(?:will|wird|mochte) sich (?:\\w+ ){0,2}(?:umbringen|toten|das leben nehmen)",
    ],
    kannNichtMehr: [
      "ich kann nicht mehr",
      "ich will nicht mehr",
      "(?:halte|ertrage) (?:das|es|dies)(?: alles)? nicht mehr aus",
      "(?:sehe )?keinen ausweg(?: mehr)?",
      "ich kann nicht weiter",
      "keine kraft mehr",
      "(?:mude|satt) (?:vom|des) leben",
    ],
    last: [
      "(?:ich bin|bin) (?:nur |bloss )?(?:eine )?(?:last|belastung) fur",
      "ohne mich (?:besser dran|besser|glucklicher)",
      "besser (?:dran )?ohne mich",
      "(?:niemand|keiner|keine) (?:wurde|wird|wuerde) mich vermissen",
    ],
    vorbereitung: [
      "(?:meine sachen|alles|meine \\w+) verschenkt",
      "(?:brauche|brauch) (?:ich|das|sie) (?:eh |sowieso )?nicht mehr",
      "(?:habe|hab) mich (?:von allen|von allem|von meiner familie) verabschiedet",
    ],
    mittel: [
      "(?:hab|habe) (?:mir )?(?:ein|einen|das|die) (?:seil|strick|waffe|pistole|messer|klinge|tabletten)(?: \\w+)? (?:gekauft|besorgt|bereit|bereitgelegt|hier)",
      "(?:stehe|bin|sitze) (?:auf|an) (?:der|dem) (?:brucke|dach|klippe|gleisen|bahnsteig|hochhaus)",
      "(?:springe|spring|werfe mich|werf mich) (?:von der|vom|vor den|vor einen) (?:brucke|dach|zug|hochhaus|balkon)",
      `wie viele (?:${MITTEL}) (?:sind todlich|um zu sterben|braucht man)`,
    ],
    uberdosis: [
      `(?:ganz viele|alle|eine ganze|die ganze|zu viele|viele|\\d+) (?:meine |der |meiner )?(?:\\w+ )?(?:${MITTEL})(?: \\w+)? (?:genommen|geschluckt|eingenommen)`,
      "(?:gift|bleiche) (?:getrunken|geschluckt)",
    ],
    selbstverletzung: [
      "(?:mich|mir) (?:ritzen|ritze|etwas antun|was antun|wehtun|weh tun)",
      "(?:ritze|ritzen|verletze|schneide) mich",
    ],
    missbrauch: [
      "missbraucht",
      "vergewaltigt",
      "(?:schlagt|schlaegt|verprugelt|misshandelt|bedroht|wurgt|sperrt) mich",
      "bringt (?:er|sie) mich um",
      "(?:wird|will) mich umbringen",
    ],
    kinderworte: [
      "kommt (?:nachts|abends|in der nacht) (?:in|zu mir in) (?:mein|meinem) (?:zimmer|bett)",
      "macht sachen mit mir",
      "(?:ist|sei) unser geheimnis",
      "(?:darf|soll) (?:es )?niemandem (?:sagen|erzahlen)",
      "fasst mich an",
    ],
    stimmen: [
      "(?:die|eine) stimmen? (?:sagen|sagt|befehlen|befiehlt|zwingen) (?:mir|mich)",
      "(?:hore|hor) stimmen",
    ],
    wochenbett: [
      "(?:mein baby|das baby|meine kinder) (?:ware|waren|wurde|waere) ohne mich besser dran",
      "(?:postpartale|wochenbett) ?depression",
    ],
    mobbing: ["gemobbt", "mobben mich"],
    ruckfall: ["(?:hatte|habe|hab) (?:wieder |schon wieder )?(?:einen )?ruckfall", "ruckfallig"],
    menschenhandel: [
      "(?:haben|hat|nahmen|nahm) (?:mir )?(?:meinen pass|meine papiere|meinen ausweis)(?: \\w+)?(?: genommen| weggenommen| abgenommen)?",
      "zwingen mich (?:zu arbeiten|zur arbeit|zur prostitution|zu)",
    ],
    gefuhle: ["ich bin (?:so |sehr |total )*(?:deprimiert|verzweifelt|hoffnungslos|am ende)", "ich fuhle mich (?:so |sehr |total |einfach )*(?:leer|wertlos|hoffnungslos|allein gelassen)"],
    trauer: ["(?:mein|meine|unser|unsere) (?:sohn|tochter|baby|mann|frau|vater|mutter|bruder|schwester|freund|freundin) (?:ist gestorben|ist tot|hat sich (?:umgebracht|das leben genommen))"],
  },
  mentions: ["hausliche gewalt", "selbstmord\\w*", "suizid\\w*", "abschiedsbrie\\w*", "(?:hat sich|sich) (?:erhangt|umgebracht|das leben genommen)"],
  help: ["(?:bitte )?(?:hilfe|helft mir|hilf mir|helfen sie mir|ich brauche hilfe)(?: bitte)?"],
  cryWords: "suizid selbstmord vergewaltigt missbraucht trauer deprimiert hoffnungslos fehlgeburt totgeburt einsam verzweifelt ritzen angst",
  cryFiller: "ich bin fuhle mich sehr wurde und hilfe habe so",
  lastGoodbye: ["(?:lebewohl|lebt wohl|leb wohl)"],
};
