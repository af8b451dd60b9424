import type { LanguageRules } from "./types.js";

const MOYENS = "(?:medicaments|medocs|cachets|comprimes|pilules|somniferes|doliprane|paracetamol|anxiolytiques|poison|javel)";

export const FR: LanguageRules = {
  lang: "fr",
  kinds: {
    ideation: [
      "me tuer",
      "(?:je veux|jveux|jai envie de|d?envie de|je voudrais) (?:mourir|en finir|disparaitre|ne plus exister|plus exister)",
      "en finir (?:avec (?:la vie|tout|ma vie)|ce soir|aujourdhui)",
      "(?:je vais|vais) en finir",
      "mettre fin a (?:mes jours|ma vie)",
      "me faire du mal",
      "je (?:ne )?veux plus (?:vivre|exister|me reveiller)",
      "(?:dormir|mendormir) et ne (?:plus|jamais) me reveiller",
      "(?:adieu|au revoir) (?:a tous|tout le monde|pour toujours|le monde)",
      "(?:mon|ceci est mon|cest mon) dernier message",
      "je me deteste",
      "(?:facon|maniere|moyen) (?:la moins douloureuse|le moins douloureux|le plus rapide|sans douleur|la plus rapide) de (?:mourir|me tuer|en finir)",
    ],
    alimentation: [
      "je me fais vomir",
      "je (?:ne mange|mange) plus (?:rien )?depuis",
      "je (?:me trouve|me sens|suis) (?:trop |si )?(?:grosse|gros)",
      "je deteste mon corps",
    ],
    panique: ["crise (?:dangoisse|de panique)", "(?:je narrive|narrive|je ne peux) plus (?:a )?respirer", "(?:je nai|nai) plus dair", "jai limpression de mourir"],
    autrui: [
      "(?:va|allait|veut|voulait|vont|menace de|a menace de) se (?:tuer|suicider|pendre|jeter|faire du mal)",
      "(?:elle|il) se (?:scarifie|coupe|mutile)",
    ],
    jenPeuxPlus: [
      "(?:jen|je nen|j en|nen) peux plus",
      "je suis a bout",
      "je (?:ne )?vois (?:plus|pas|aucune) (?:dissue|de sortie|issue|sortie|autre issue)",
      "(?:pas|plus) dissue",
      "(?:je ne peux|je peux) plus continuer",
      "(?:marre|fatigue\\w*) de (?:vivre|la vie|tout)",
    ],
    fardeau: [
      "(?:je suis|je me sens) (?:un|une) (?:fardeau|poids|boulet)",
      "(?:seraient|serait|seront|sera|serais) mieux sans moi",
      "personne ne (?:me regretterait|me regrettera|remarquerait|verrait la difference)",
      "je (?:manquerais|manquerai) a personne",
    ],
    preparatifs: [
      "(?:jai donne|je donne|jai distribue) (?:toutes )?mes affaires",
      "(?:jen|je nen) aurai plus besoin",
      "(?:jai dit|je dis) adieu a (?:tout le monde|tous|ma famille)",
    ],
    moyens: [
      "jai (?:achete|trouve|prepare) (?:une|la|un|le) (?:corde|arme|pistolet|fusil)",
      "jai (?:une|la|un|le|les|mes) (?:corde|arme|pistolet|cachets|medicaments)(?: \\w+)? (?:pour (?:moi|ce soir|en finir|mourir)|pretes?|prets?)",
      "(?:je suis|chuis|jsuis) (?:sur|au bord du|au bord de la|en haut du|en haut de la) (?:le |la )?(?:pont|toit|falaise|rails)",
      "me jeter (?:du|de la|dun|sous|par la)",
      "sauter (?:du pont|du toit|par la fenetre|sous un train)",
      `combien de (?:${MOYENS}) (?:pour mourir|pour en finir|sont mortels)`,
    ],
    surdose: [
      `(?:jai|j ai) (?:pris|avale|bu) (?:toute la boite|toutes les boites|tous mes|toutes mes|tous les|toutes les|trop de|plein de|une boite de|\\d+)(?: de| d)? (?:\\w+ )?(?:${MOYENS}|boite)`,
      "(?:jai|j ai) (?:bu|avale) (?:de la javel|du poison|du javel)",
    ],
    automutilation: ["je me (?:scarifie|coupe|mutile|brule|fais du mal)", "je me suis (?:encore |de nouveau )?(?:scarifie|mutile|fait du mal)e?s?", "je me suis (?:encore |de nouveau )?(?:coupe|brule|taillade)e?s? (?:les|aux|le|au) (?:bras|poignets?|veines|cuisses|ventre)", "scarif\\w*", "automutil\\w*"],
    abus: [
      "(?:il|elle|on|(?:mon|ma) (?!dieu|seigneur|jesus|christ)(?:\\w+ )?\\w+) me (?:frappe|bat|viole|force|menace|etrangle|tape|enferme|tripote)",
      "(?:mon|ma) (?!dieu|seigneur|jesus|christ)(?:\\w+ )?\\w+ me touche(?:$| la nuit| quand| partout| sans| encore| en bas)",
      "(?:il|elle|on) me touche (?:la nuit|sans|quand|partout|encore|la ou)",
      "(?:il|elle|on) ma (?:viole\\w*|agresse\\w*|frappe\\w*|battu\\w*|force\\w*|drogue\\w*)",
      "jai ete (?:violee?|abusee?|agressee?|battue?|frappee?|droguee?)(?: sexuellement)?",
      "(?:a|ont) abuse de moi",
      "abuse de moi",
      "(?:il|elle) (?:me tue|va me tuer|me tuera)",
    ],
    motsDEnfants: [
      "(?:vient|entre|rentre) dans ma (?:chambre|lit) (?:la nuit|le soir|quand)",
      "me fait des (?:choses|trucs)",
      "(?:dit que cest|cest notre) (?:un |notre )?secret",
      "(?:ma dit|dit) de (?:ne )?(?:rien|pas) dire",
    ],
    voix: [
      "les voix (?:me )?(?:disent|ordonnent|demandent|obligent)",
      "(?:jentends|j entends) des voix",
      "une voix (?:me )?(?:dit|ordonne|demande)",
    ],
    postPartum: [
      "(?:mon bebe|le bebe|mes enfants) (?:serait|seraient|sera) mieux sans moi",
      "depression post ?partum",
    ],
    harcelement: ["on me harcele", "je suis harcele\\w*", "(?:ils|elles) me harcelent"],
    rechute: ["(?:jai|je viens de) (?:encore |refait une )?rechute\\w*", "jai (?:encore )?fait une rechute"],
    traite: [
      "(?:ils|elles|il|elle|on) (?:ont pris|a pris|garde|gardent|ma pris|mont pris) (?:mon passeport|mes papiers)",
      "(?:me|nous) (?:forcent|force|obligent|oblige) a (?:travailler|me prostituer|coucher)",
    ],
    sentiments: [
      "(?:je suis|je me sens) (?:tellement |si |tres )*(?:deprime\\w*|desespere\\w*|sans espoir|vide|inutile|de trop)",
      "(?:nai|jai) plus (?:envie|le gout|la force|le courage|de raison|aucune raison) de vivre",
      "me foutre en lair",
      "personne ne (?:maime|sinteresse a moi|se soucie de moi)",
    ],
    deuil: [
      "jai fait une fausse couche",
      "(?:mon|ma|notre) (?:fils|fille|bebe|mari|femme|pere|mere|frere|soeur|ami|amie) (?:est mort|est morte|est decede|sest suicide|sest tue|sest donne la mort)",
    ],
  },
  mentions: ["violences? conjugales?", "sest (?:suicide\\w*|tue\\w*|pendu\\w*|donne la mort)", "suicid\\w*", "(?:lettres?|messages?|mots?) dadieu"],
  help: ["(?:svp |sil vous plait )?(?:a laide|au secours|aidez moi|aide moi|aidez|jai besoin daide|besoin daide)(?: svp| sil vous plait| sil te plait| vite)?"],
  cryWords: "viol violee abusee deuil deprime deprimee desespere desesperee seule detresse",
  cryFiller: "je suis sens tres si tellement jai ete et aide moi me",
  lastGoodbye: ["adieu(?: pour toujours)?"],
};
