import type { LanguageRules } from "./types.js";

const MEIOS = "(?:comprimidos|remedios|remedio|pilulas|calmantes|medicamentos|remedios para dormir|veneno|chumbinho|agua sanitaria)";

export const PT: LanguageRules = {
  lang: "pt",
  kinds: {
    ideacao: [
      "(?:seria|era) melhor se eu (?:nao existisse|nao estivesse aqui|morresse|sumisse|nunca tivesse nascido)",
      "(?:me|vou me|quero me|pensando em me) matar",
      "tirar (?:a )?minha (?:propria )?vida",
      "(?:quero|vou|queria|preciso) (?:morrer|sumir|desaparecer|deixar de existir)",
      "vontade de (?:morrer|sumir|desaparecer|me matar|deixar de existir)",
      "(?:nao|ja nao) quero (?:mais )?(?:viver|existir|acordar|estar aqui)",
      "(?:nao tenho|sem) (?:mais )?(?:nenhum )?(?:motivo|motivos|razao|razoes) (?:para|de) viver",
      "(?:dormir|deitar) e (?:nao|nunca mais) acordar",
      "(?:acabar|terminar) com (?:tudo|a minha vida|minha vida|isso)",
      "(?:meu|minha|esta e minha|essa e minha) ultima mensagem",
      "adeus (?:a todos|pra sempre|para sempre|mundo|gente)",
      "(?:me odeio|odeio minha vida)",
      "(?:forma|maneira|jeito) (?:menos dolorosa|mais rapida|mais facil|indolor|sem dor) de (?:morrer|me matar|acabar)",
      "(?:nao vejo|sem) (?:mais )?sentido (?:em viver|na vida|de viver|em nada)",
    ],
    alimentacao: [
      "nao (?:como|comi) (?:nada )?(?:ha|faz|desde|por) (?:\\w+ )?dias",
      "(?:me acho|me sinto|sou|estou) (?:muito |tao )?gorda",
      "vomit\\w* depois de (?:comer|cada)|me faco vomitar",
      "odeio (?:o )?meu corpo",
    ],
    panico: ["(?:estou tendo|to tendo|tive|tenho) (?:um |uns )?ataques? de panico", "(?:estou tendo|to tendo) (?:um )?ataque de ansiedade", "nao consigo respirar", "sinto que vou morrer"],
    outroEmPerigo: [
      "vai se (?:matar|suicidar|enforcar|jogar)",
      "quer se (?:matar|suicidar)",
      "(?:vai|quer) tirar a (?:propria )?vida",
    ],
    naoAguento: [
      "nao (?:aguento|suporto) mais",
      "nao consigo mais (?:continuar|viver|seguir|aguentar)",
      "nao vejo (?:saida|outra saida)",
      "(?:cansad[oa]) de (?:viver|tudo|da vida)",
    ],
    peso: [
      "(?:sou|me sinto) (?:um|uma) (?:peso|fardo|estorvo)",
      "(?:ficaria|estaria|seria|ficariam|estariam|seriam|vao ficar|vai ficar) melhor sem mim",
      "ninguem (?:sentiria|vai sentir|ia sentir) (?:a )?minha falta",
    ],
    preparativos: [
      "(?:dei|doei|estou dando|to dando) (?:todas )?(?:as )?minhas coisas",
      "nao vou (?:mais )?precisar (?:delas|deles|disso|mais)",
      "(?:ja )?(?:me despedi|estou me despedindo) de (?:todos|todo mundo|minha familia)",
    ],
    meios: [
      "comprei (?:a|uma|o|um) (?:corda|arma|revolver|veneno)",
      // Added from set 6's training file, by kind: a rope or a means held, many pills taken, a prayer to be taken now, not coming back.
      "(?:tenho|comprei|arrumei|consegui) (?:a|uma|o|um) (?:corda|arma|revolver)(?! de)",
      "tomei (?:um monte de|muitos|muitas|varios|varias|todos os|todas as|uma caixa de|um vidro de) (?:comprimidos?|remedios?|pilulas?|calmantes?|medicamentos?)",
      "(?:senhor|deus|jesus) (?:me )?lev(?:a|e) (?:me )?(?:embora )?(?:hoje|agora|logo|esta noite|essa noite)",
      "(?:adeus|tchau)(?: \\w+){0,4} (?:nao volto mais|nunca mais volto)",
      "(?:tenho|separei|peguei) (?:a|uma|o|um|os) (?:corda|arma|revolver|comprimidos|veneno) (?:pronta|pronto|prontos|aqui|pra mim|para mim|separad[oa]s?)",
      "(?:to|estou|tou) (?:na|no|em cima da|em cima do) (?:ponte|telhado|terraco|beira|trilho)",
      "(?:me jogar|pular) (?:da|do|de) (?:ponte|predio|telhado|janela)",
      `quant[oa]s (?:\\w+ )?${MEIOS} (?:pra|para) morrer`,
    ],
    overdose: [
      "(?:engoli|tomei) (?:uma |a )?cartela (?:inteira )?(?:de )?(?:remedio|remedios|comprimidos)",
      `tomei (?:todos|todas|uma caixa|a caixa|um monte|muitos|muitas|\\d+|demais)(?: de| os| as| dos| das| meus| minhas)? (?:\\w+ )?(?:${MEIOS})`,
      `tomei (?:${MEIOS}) (?:demais|de mais|a mais)`,
      "(?:bebi|tomei) (?:veneno|agua sanitaria|chumbinho)",
    ],
    autolesao: [
      "me (?:machucar|cortar|ferir|corto|machuco|queimo)",
      "automutila\\w*",
    ],
    abuso: [
      "(?:abusou|abusaram|abusa) de mim",
      "(?:fui|sou|estou sendo) (?:abusad[oa]|estuprad[oa]|violentad[oa]|espancad[oa])",
      "me (?:estuprou|estupra|bate|batia|espanca|violentou|ameaca|enforca|tranca)",
      "me obriga a (?:ter relac\\w*|fazer sexo|transar)",
      "(?:ele|ela|eles) (?:me mata|vai me matar|disse que me mata)",
      "me mata se eu",
    ],
    palavrasDeCriancas: [
      "(?:mexe|mexeu|toca|tocou|passa a mao) em mim",
      "faz coisas (?:comigo|em mim)",
      "(?:disse que e|diz que e|e nosso) (?:um |nosso )?segredo",
      "(?:entra|vem) no meu quarto (?:de noite|a noite|quando)",
    ],
    vozes: [
      "(?:as|umas) vozes (?:me )?(?:mandam|dizem|pedem|falam)",
      "(?:escuto|ouco) (?:vozes|uma voz)",
      "uma voz (?:me )?(?:manda|diz|pede)",
    ],
    posParto: [
      "(?:meu bebe|o bebe|meus filhos) (?:estaria|ficaria|seria|estariam|ficariam) melhor sem mim",
      "depressao pos parto",
    ],
    bullying: ["sofro bullying", "(?:fazem|faz) bullying comigo"],
    recaida: ["tive (?:uma|outra) recaida", "recai (?:de novo|outra vez)"],
    trafico: [
      "(?:pegaram|tomaram|ficaram com|tiraram) (?:o |meu )?(?:passaporte|documentos|meus documentos)",
      "(?:me )?obrigam a (?:trabalhar|me prostituir)",
    ],
    sentimentos: ["(?:estou|me sinto|to|tou) (?:muito |tao |mal )*(?:deprimid[oa]|desesperad[oa]|sem esperanca|mal demais)"],
    luto: ["(?:meu|minha|nosso|nossa) (?:filh[oa]|bebe|marido|esposa|pai|mae|irm[aã]o?|amig[oa]) (?:morreu|faleceu|se matou|se suicidou|tirou a propria vida)"],
  },
  mentions: ["violencia domestica", "se (?:matou|suicidou|enforcou)", "suicid\\w*", "cartas? de despedida"],
  help: ["(?:por favor )?(?:ajuda|me ajuda|me ajudem|ajude me|socorro|preciso de ajuda)(?: por favor| pfv| pf)?"],
  cryWords: "estuprada estuprado abusada deprimida deprimido sozinha sozinho desesperada desesperado automutilacao tristeza luto",
  cryFiller: "estou eu sinto muito tao sou e socorro me",
  lastGoodbye: ["adeus(?: pra sempre| para sempre)?"],
};
