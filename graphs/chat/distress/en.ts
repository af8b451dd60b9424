import type { LanguageRules } from "./types.js";

/** "I am / I'm / im / I've been / I was / I got": the first person as people type it (after distressForm). */
const I_AM = "(?:i am|im|i m|iam|i was|ive been|i have been|i had been|i got|i get|i keep getting|i keep being|i am being)";
/** The people who hurt someone, as a disclosure names them ("my uncle", "the youth pastor", "our priest"). */
const ROLE =
  "(?:youth pastor|youth leader|youth minister|step ?dad|step ?father|step ?mom|step ?mother|step ?brother|(?:grand ?)?(?:father|dad|daddy|mother|mom|mum|pa|ma)|uncle|aunt|brother|sister|cousin|husband|wife|spouse|partner|boyfriend|girlfriend|ex|fiance|teacher|coach|pastor|priest|minister|deacon|elder|bishop|leader|boss|neighbou?r|babysitter|nanny|tutor|doctor|counsel?lor|parents?|guardian|son|daughter|grandson|granddaughter|carer|caregiver|nurse|foster (?:dad|father|mom|mother|parent)|moms boyfriend|mums boyfriend|dads girlfriend)";
/** Who a disclosure says did it: a pronoun, "my <anyone>", or a role ("the pastor"), never any noun ("the psalm hit me"). */
const DOER = `(?:he|she|they|someone|somebody|my \\w+(?: \\w+)?|(?:the|a|an|our|his|her|their) ${ROLE})`;
/** Abuse verbs that need no qualifier once a person does them to "me". */
const HARM_VERBS =
  "(?:beats|beat|beating|hits|hit|hitting|hurts|hurt|hurting|chokes|choked|choking|strangles|strangled|slaps|slapped|punches|punched|kicks|kicked|rapes|raped|raping|molests|molested|molesting|abuses|abused|abusing|grabs|grabbed|threatens|threatened|forces|forced|burns|burned|locks|locked|starves|starved)";
/** Touching is a disclosure from "my uncle" or "the pastor"; from "he" or "someone" only with more ("He touched me" is a hymn, Luke 8:46 "Someone touched me"). */
const TOUCH = "(?:touches|touched|touching|touch|fondles|fondled|gropes|groped|feels me up|felt me up)";
const TOUCH_MORE =
  "(?:there|down there|inappropriately|sexually|in my|on my|under|at night|when i|while i|since i|without|and (?:told|said|made|i)|every|again|where|in places|in private|in a bad way|in the wrong|private)";
const VICTIM = "(?:me|my (?:daughter|son|child|kids|children|baby|sister|brother|wife|mom|mother|little \\w+))";
/** What people take or keep to end their life. */
const MEANS =
  "(?:pills|meds|medication|medicine|tablets|sleeping pills|painkillers|tylenol|paracetamol|acetaminophen|ibuprofen|advil|aspirin|insulin|xanax|benzos|antidepressants|sertraline|prozac|oxy|opioids|fentanyl|heroin|bleach|poison|rat poison|antifreeze|drano|vodka and pills)";
/** What people give away before they go. */
const BELONGINGS = "(?:things|stuff|belongings|possessions|dog|cat|pets?|clothes|guitar|games|books|savings|tools|car|jewelry|jewellery|collection|records|bike|plants)";
const PLACE = "(?:bridge|roof|rooftop|ledge|cliff|overpass|train tracks|tracks|railway|train platform|top floor|parking garage|edge of (?:the )?(?:roof|bridge|cliff|building))";
/** A person the writer lost or lives with, as "my <person>". */
const MY_PERSON =
  "(?:(?:\\w+ )?(?:baby|son|daughter|child|husband|wife|mom|mother|dad|father|brother|sister|friend|best friend|boyfriend|girlfriend|fiance|partner|grandma|grandpa|grandmother|grandfather))";

export const EN: LanguageRules = {
  lang: "en",
  kinds: {
    ideation: [
      "kill?(?:ing|ed)? my ?self",
      "kms",
      "ctb",
      "unaliv\\w*",
      "sewer ?slide",
      "off my ?self",
      "end me",
      "(?:end|ending|ended|take|taking|took|takes) my (?:own )?life",
      "end(?:ing)? it all",
      "(?:thinking (?:about|of)|thought (?:about|of)|considering|to|ready to|going to|about to) end(?:ing)? it(?! (?:with|by|in|on|at|for|the|there))",
      "(?:want|wanna|need) out of (?:this life|life|here)",
      "(?:life is|my life is|living is) (?:meaningless|pointless|worthless|not worth (?:it|living))(?! (?:without (?:god|christ|jesus)|apart from))",
      "(?:wish|wished) i (?:wasnt|werent|was not|were not) (?:alive|here)",
      "(?:want|wanna|wish i could|just want) (?:to )?sleep forever",
      "(?:im|i am) (?:going to|gonna|about to|ready to) jump(?: tonight| now| today| off)?(?! (?:in|into|at|on|for|up))",
      "(?:theres|there is) no point (?:anymore|any more|in anything|in trying|in living|to anything|to living)",
      "(?:want to|going to|will|might|thinking (?:about|of)|think about|plan to|planning to|ready to|decided to|about to|gonna) end (?:it|everything|my life|things|this)",
      // "I want to die", not "I want to die to self" (Romans 6, Galatians 2:20).
      "(?:want|wanted|wanting|wish|wishing|ready|going|deserve|just want|need) (?:to |too |2 )?die(?! (?:to|unto|with|for|in) (?:self|my ?self|sin|the (?:flesh|world|old|lord)|my (?:flesh|old|sin|ego|pride|will)|our ?selves|ourselves|christ|jesus|him))",
      "(?:please|just|god) (?:just )?(?:let|make) me die",
      "let me die",
      "(?:wish|wished) i (?:was|were|could be) dead",
      "(?:wish|wished) i (?:had never|hadnt|was never|wasnt|were never) (?:been )?born",
      "(?:go to sleep|fall asleep|sleep) and (?:never|not) wake up",
      "(?:never|not) (?:want to )?wake up (?:again|tomorrow)",
      "(?:want|wanna|wish i could|going) to (?:disappear|vanish|fade away|stop existing|not exist)",
      "fade away",
      "better off (?:dead|without me|if i (?:was|were) (?:gone|dead))",
      "(?:dont|do not|no longer|never|dont really|doesnt|do not really) (?:want|wish) (?:to )?(?:live|be alive|be here|exist|wake up|go on|keep going|keep living)",
      "no (?:reason|point|purpose) (?:to|in|of) (?:live|living|go on|going on|being alive|life|keep going)",
      "(?:whats|what is) the point (?:of|in) (?:living|life|going on|being alive|anything)",
      "nothing (?:left )?to live for",
      "(?:tired|sick) of (?:living|life|being alive|everything|it all|existing)",
      "give up on life",
      "why (?:does|did|do|would) god (?:keep|let) me (?:alive|live|here|wake up)",
      "(?:wont|will not|will no longer) be (?:here|around|alive) (?:tomorrow|much longer|anymore|next week|by morning)",
      "(?:my|this is my|this is the) last (?:message|goodbye|words|letter)",
      "(?:my|this is my) last (?:night|day) (?:alive|on earth|here)",
      "(?:goodbye|good bye|bye|farewell|so long) (?:everyone|everybody|world|cruel world|forever|for good|for ever|yall|to everyone|to all of you)",
      "tonight is the night",
      "(?:scared|afraid|terrified) (?:of )?what i (?:might|could|will|would) do(?: to my ?self)?",
      "(?:hate|hating) my ?self",
      "(?:im|i am|feel like im) (?:just )?a (?:waste of (?:space|air|oxygen)|mistake|failure at everything)",
      // Wanting it all to stop: "i just want everything to stop", "i want the pain to end forever".
      "(?:want|wanna|need|wish|just want) (?:for )?(?:everything|it all|all of it|the pain|this pain|the hurt|the hurting|the suffering|my life|the noise) to (?:stop|end|be over|go away forever)",
      // "I'd rather be dead", never a martyr's "I'd rather die than deny Christ".
      "(?:id|i would|i d|i) rather (?:be dead|die|not (?:be alive|exist|wake up|live|be here))(?! (?:than|then) (?:deny|denying|betray|betraying|renounce|renouncing|sin|sinning|lose|give up|turn|live without (?:god|christ|jesus)|that))",
      "(?:anything|nothing|no one|nobody|the only thing) (?:is |left )?keeping me (?:here|alive)",
      "(?:only|just) still (?:here|alive|around|living|hanging on) (?:for|because)",
      "in case (?:im|i am|i m) (?:not|no longer) (?:here|around|alive)",
      "(?:wont|will not|will no longer|might not|may not) be (?:here|around|alive) (?:after|by|for long|long|past)",
      "(?:pray|praying|prayed|prays) (?:every night |each night |at night |daily )?(?:for (?:my )?death|for god to take me|to die|that (?:god|he|i) (?:wont|will not|would not|doesnt|never) (?:let me )?wake up)",
      "(?:wont|will not|doesnt|would not|wouldnt|never) let me wake up",
      // A prayer to be taken now: "Jesus please take me tonight" (not "take me to church").
      "(?:god|lord|jesus|father|please) (?:please |just )*take me (?:home )?(?:tonight|now|today|already|in my sleep)",
      "(?:want|wanna|ready|going) to go home to (?:jesus|god|heaven|the lord) (?:today|now|tonight|already|not someday)",
      `(?:want|wanna|going|ready|need|long|longing) to (?:join|go be with|be with) (?:him|her|them|my \\w+) (?:now|today|tonight|already|in the grave)`,
      `(?:want|wanna|going|ready|need|long|longing) to join (?:him|her|them|my \\w+) in heaven`,
      `(?:lie|lay|lying) down (?:\\w+ ){0,6}(?:and )?(?:never|not) (?:get|getting|wake|waking) up`,
      "what (?:does it|would it|is it) (?:feel|feels) like to (?:drown|die|bleed out|overdose|hang|suffocate|be dead|get shot)",
      // Metaphor: the darkness winning, a fight that cannot go on.
      "(?:darkness|the dark|the void|the pit|black hole) (?:is )?(?:swallowing|consuming|eating|taking over|winning|pulling me)",
      "(?:cant|cannot|can not|no longer) (?:fight|keep fighting) (?:it|this) (?:anymore|any more)",
      "(?:dont|do not|cant|cannot|no longer) see (?:a|any) future (?:for me|for my ?self|anymore|any more|ahead)",
      "(?:dont|do not|cant|cannot|no longer) see (?:a|any|the) point (?:in|of|to) (?:living|life|going on|anything|waking up|being alive)",
    ],
    notGoingOn: [
      "(?:cant|cannot|can not|couldnt) (?:go on|take (?:it|this|any ?more)|do this any ?more|do it any ?more|keep going|live like this|handle (?:it|this|life) any ?more|breathe any ?more|cope any ?more|carry on)",
      "(?:im|i am) (?:so )?done with (?:it all|everything|life|living|all of it|this life|being alive)",
      "(?:im|i am) (?:so )?done (?:living|being alive|existing)",
      "(?:tired|sick) of (?:fighting|being here|being me|waking up)",
      "(?:dont|cant|do not) see (?:a|any) way out",
      "no way out (?:for me|anymore|of this)",
      "(?:im|i am|feel like im) drowning",
    ],
    burden: [
      "(?:im|i am|i feel like|i feel like im|being|just|such) (?:such |just |only |nothing but )?a (?:burden|weight|drain)",
      "(?:everyone|they|my family|people|my kids|my wife|my husband|the world|everybody|my parents|she|he|my \\w+) (?:would|will|d) be (?:better|happier|relieved|fine)(?: off)? (?:without me|if i (?:was|were) gone|when im gone)",
      "(?:no one|nobody|noone|no1) (?:would|will|d) (?:even )?(?:miss|notice|care|cry)",
      "(?:no one|nobody) cares (?:if|whether) (?:i|im|i m) (?:live|die|am alive|alive|exist|here|gone|dead)",
      "(?:be|are|is|live) (?:better|happier|fine|ok|okay|better off) without me",
    ],
    means: [
      `(?:have|got|bought|buying|found|keep|holding|hid|hidden|saved|saving|stockpiling|counted|lined up) (?:the |a |my |some |all the |enough )?(?:rope|noose|gun|pistol|rifle|knife|blade|razor|razors|${MEANS})(?: \\w+)? (?:ready|lined up|in front of me|here|for (?:it|this|me|tonight)|on my desk|next to me)`,
      "(?:the )?(?:knot|noose|rope) is (?:tied|ready|up)",
      "(?:bought|got|have) a (?:gun|rope|noose)(?: \\w+)?(?: i know what (?:its|it is) for| for my ?self)",
      `(?:standing|sitting|stood|up) on (?:the |a |my )?(?:edge of )?(?:the |a |my )?(?:\\w+ )?${PLACE}`,
      `(?:im|i am|i m) (?:on|at|standing on|sitting on|on top of) (?:the |a |my )?(?:\\w+ )?${PLACE}(?! (?:of|in) (?:the )?(?:bible|scripture))`,
      "(?:thinking (?:of|about)|going to|want to|about to|ready to) (?:step|stepping|jump|jumping) (?:off|in front)",
      "jump(?:ing)? (?:off (?:a |the |of )?(?:bridge|building|roof|cliff|balcony)|in front of)",
      "(?:driving|drive|crash) (?:my car )?(?:into|off) (?:a |the )?(?:tree|wall|bridge|cliff|truck|traffic)",
      `how (?:many|much) (?:of )?(?:my |these |the )?(?:\\w+ )?(?:${MEANS}) (?:is|are|would be|would|will|does it take|do i need|to) (?:too many|too much|lethal|fatal|deadly|enough|overdose|od|kill|die|end)`,
      `how (?:many|much) (?:${MEANS}) (?:to|would) (?:die|kill|od|overdose)`,
      `(?:researching|researched|looked up|looking up|googling|googled|searched|searching) how (?:much|many) (?:\\w+ )?(?:${MEANS})`,
      "(?:ways|methods|how) to (?:kill my ?self|end my life|overdose|od|die painlessly|die quickly)",
      "(?:least painful|painless|quickest|easiest|fastest) (?:way|method) (?:to (?:die|go|do it|end it)|of dying)",
      "how (?:long|much) (?:does it take|would it take) to (?:bleed out|die|drown|suffocate)",
      "bleed out",
      `how (?:many|much) (?:of )?(?:my |these |the )?(?:\\w+ )?${MEANS} (?:would|will|does) it take`,
      "how (?:high|far|tall) (?:a |the )?(?:fall|drop|jump|building|bridge|floor) (?:has|needs|would|is|to)",
      `(?:thinking|think|thought|keep thinking|dreaming|dream|fantasi[sz]ing|fantasi[sz]e|imagining|imagine) (?:about|of) (?:stepping|jumping|throwing my ?self)(?: \\w+)? (?:off|in front|out into|over)`,
      `(?:thinking|think|thought|keep thinking|dreaming|dream|fantasi[sz]ing|imagining|imagine) (?:about|of) (?:driving|crashing|swerving|steering)(?: \\w+)?(?: \\w+)? (?:into|off) (?:a |the |on)?(?:tree|wall|river|lake|bridge|traffic|truck|oncoming|pole|ocean|sea|cliff|coming)`,
      "(?:walk|walking|step|stepping) (?:out )?into (?:traffic|the (?:sea|ocean|lake|river))",
      "(?:thinking|think|thought|keep thinking) (?:about|of) (?:the|a|my) (?:rope|noose|gun|pistol|razor|blade|pills)",
      "(?:keep|keeping|carry|carrying|hide|hiding|hid) (?:a |the |my )?(?:razor|razors|blade|blades)",
      "(?:the|my|a) (?:gun|pistol|rifle|rope|noose|knife|blade|razor) is (?:out|loaded|ready|in my hand|on the table|next to me|in front of me|in my lap)",
      "(?:loaded|holding) (?:the|my|a) (?:gun|pistol|rifle)",
      "(?:have|holding|hold|got) the (?:blade|razor|knife|gun) in my hand",
      "(?:no|without (?:a |my )?) ?seat ?belt",
      "(?:thinking (?:about|of)|going to|want to|gonna) (?:drive|driving) (?:drunk|fast|off|into)",
      // Stopping what keeps one alive: "stopped taking my heart meds on purpose".
      `(?:stopped|stop|stopping|quit|quitting) (?:taking )?my (?:\\w+ )?(?:meds|medication|medicine|insulin|pills|dialysis|treatment)(?: on purpose| so (?:i|that)| to (?:die|go))`,
      "(?:so i can|so i could|and|to|just|want to|wanna) slip away(?! from)",
    ],
    overdose: [
      `(?:took|taken|take|swallowed|swallow|ate|downed|drank|drunk|popped|overdid|od d|odd) (?:like |about |around |maybe )?(?:all|a bunch of|too many|a lot of|lots of|a handful of|a whole (?:bottle|box|pack|packet) of|the whole (?:bottle|box|pack|packet)(?: of)?|everything in|half (?:a|the) (?:bottle|box)(?: of)?|\\d+|twenty|thirty|forty|fifty|ten|fifteen) (?:of )?(?:my |the |her |his |mom s |moms |mums |dads )?(?:\\w+ )?(?:${MEANS}|medicine cabinet|the cabinet|bottle|box)`,
      `(?:took|swallowed|drank|ate) (?:some |the |a )?(?:bleach|poison|rat poison|antifreeze|drano)`,
      "(?:overdid|overdone) it on (?:my |the )?(?:meds|pills|medication)(?: on purpose)?",
      "i (?:just )?(?:overdosed|od d|odd)",
      "i (?:took|swallowed|drank) something (?:and|to|so)",
      "(?:took|swallowed) (?:them|it) all",
    ],
    selfHarm: [
      "(?:hurt|hurting|harm|harming|cut|cutting|burn|burning|burned|burnt|starve|starving|punish|punishing) (?:my ?self|my (?:arms?|wrists?|legs?|skin|thighs?|stomach))",
      "(?:cutting|cut|burning) (?:again|deeper|deep)",
      "(?:stopped|stop|quit) eating (?:on purpose|so (?:i|that))",
      "(?:hang|hanging|drown|drowning|shoot|shooting|poison|poisoning|starve|starving|stab|stabbing) my ?self",
      "my (?:arms?|wrists?|legs?|thighs?|skin|body) (?:are|is) (?:covered in|full of) (?:scars|cuts|burns)",
      "(?:adding|add|added|making|made) (?:new|more|fresh) (?:ones|cuts|scars|burns)",
      "(?:fresh|new|deep) (?:cuts|scars|burns) on my",
      "make my ?self (?:bleed|hurt|suffer)",
    ],
    /** Eating disorders: purging, starving, hating the body that eats. */
    eating: [
      "(?:throw|throwing|threw|throws) up after (?:every|each|i eat|eating|meals?|dinner|lunch|breakfast)",
      "make my ?self (?:throw up|vomit|sick) after",
      "(?:purging|purge|purged) after|(?:binge|binging|bingeing) and (?:purge|purging)",
      `(?:havent|have not|hasnt|didnt|did not) (?:eaten|eat) (?:anything )?(?:in|for) (?:\\w+ )?(?:days|weeks)`,
      "(?:not eating|starving|skip(?:ping)? meals) (?:to|as|so i can) (?:punish|lose|be thin|be closer|be pure)",
      "(?:still|always) (?:feel|look|am) (?:so )?(?:fat|huge|disgusting)",
      "(?:hate|disgusted by|loathe) my body",
      "(?:im|i am|i m|been) (?:anorexic|bulimic)",
    ],
    /** Panic: the body's alarm, the fear of dying now. */
    panic: [
      "(?:having|had|have|in the middle of|another) (?:a |an )?(?:panic|anxiety) attack",
      "panic attacks? (?:right now|now|again|tonight|every)",
      "(?:cant|cannot|can not|couldnt) breathe(?! without (?:you|your|god|jesus|him|christ|the lord))",
      "my heart (?:is )?(?:racing|pounding)(?: so fast)? (?:and|so)",
      "(?:i think|feel like|felt like|i feel like|sure) (?:im|i am|i m) (?:dying|going to die|about to die|having a heart attack|going crazy|losing my mind|losing it)",
      "(?:walls|room) (?:are|is) closing in",
      "(?:im|i am|i m|whole body is|my hands are|my body is) (?:shaking|trembling) (?:and|so)(?! in awe)",
    ],
    feelings: [
      `${I_AM} (?:so |really |very |just |feeling |completely |totally |been |always |still |deeply )*(?:depressed|hopeless|suicidal|worthless|desperate|in despair|grieving|heartbroken|devastated|broken inside|dead inside|numb|empty inside|falling apart|not ok|not okay)`,
      "i (?:feel|felt|am feeling|m feeling|have felt|ve felt) (?:so |really |very |completely |totally |just )*(?:hopeless|worthless|empty|numb|alone|lonely|dead inside|like dying|like giving up|like a burden|like ending|abandoned by god|suicidal|depressed|invisible)",
    ],
    grief: [
      "(?:i|we) (?:had|have had|just had|suffered) a (?:miscarriage|stillbirth|stillborn)",
      "(?:lost|losing) (?:my|our) (?:baby|pregnancy|unborn)",
      "(?:my|our) (?:baby|son|daughter) (?:was|is) stillborn",
      `(?:my|our) ${MY_PERSON} (?:just |recently )?(?:died|passed away|was killed|is dead|killed (?:himself|herself|themselves)|took (?:his|her|their) (?:own )?life|committed suicide|died by suicide|hanged (?:himself|herself)|overdosed)`,
    ],
    abuse: [
      `${I_AM} (?:being |getting |been )?(?:sexually |physically |emotionally |verbally |repeatedly |spiritually )?(?:abused|molested|raped|assaulted|groomed|beaten|hit|trafficked|touched inappropriately|sexually assaulted|drugged|bullied|stalked)`,
      "(?:abused|molested|raped|groomed|trafficked|assaulted) by (?:my|a|an|the|our|his|her|their|someone|somebody|him|her|them|\\w+ (?:pastor|priest|leader|teacher|coach|uncle|father|dad))",
      "beaten by (?:my|someone|somebody|him|her|them)",
      `(?:abuses|abused|abusing|molests|molested|molesting|rapes|raped|raping|assaulted|assaults|grooming|grooms|groomed|trafficked|beats|beat|beating) ${VICTIM}`,
      `${DOER} (?:keeps |kept |always |still |sometimes |often |would |used to |has |had )?${HARM_VERBS} ${VICTIM}(?! up)`,
      "(?:and|then|who) (?:he |she |they )?(?:hits|beats|slaps|kicks|punches|chokes|strangles|burns) me",
      "(?:locks|locked|lock|keeps|kept) me (?:in|up|inside|out)(?: of)? (?:the |my |a )?(?:house|room|home|basement|closet|car)",
      "(?:doesnt|does not|wont|will not|dont|do not) (?:let me eat|feed me|give me food|let me leave|let me out)",
      `(?:my \\w+(?: \\w+)?|(?:the|a|an|our|his|her|their) ${ROLE}) (?:keeps |kept |always |still |sometimes |would |used to )?${TOUCH} (?:me|my)`,
      `(?:he|she|they|someone|somebody) (?:keeps |kept |always |still |sometimes |would |used to )?${TOUCH} me ${TOUCH_MORE}`,
      `${TOUCH} me (?:inappropriately|sexually|down there|in my private|in private places)`,
      "inappropriate(?:ly)? touch\\w*",
      "bad touch",
      "(?:forces|forced|forcing|makes|made|making|pressures|pressured|coerces|coerced|pushes|pushed) me (?:to |into )?(?:have sex|having sex|sleep with|sex|do sexual|do things|perform|send nudes|touch (?:him|her|his|it|them))",
      "(?:forced|made|making|force) (?:to |me to )?(?:sleep with|have sex with) (?:men|people|strangers|clients|customers)",
      "forced (?:himself|herself) on me",
      "(?:marital|date|spousal) rape",
      "(?:didnt|did not|never|couldnt) consent",
      "without my consent",
      "against my will",
      "(?:drugged|spiked) (?:me|my drink)",
      "woke up (?:naked|somewhere i didnt know|in a strange|with no memory)",
      `(?:afraid|scared|terrified) (?:of|of what) my ${ROLE}`,
      `my ${ROLE} (?:is |was |has been |gets |can be )?(?:abusive|violent)`,
      "abusive (?:husband|wife|marriage|relationship|father|dad|mother|mom|home|parents?|partner|boyfriend|pastor)",
      // Threats: "my husband says if i leave he will kill me".
      "(?:will|is going to|going to|threatens to|threatened to|said he would|said she would|hell|shell|theyll) (?:kill|hurt|murder|shoot|stab) me",
      // Someone else's disclosure passed on (a teacher, a parent, a friend): "a girl in my class says her
      // stepdad hurts her". Bible stories name their people ("Amnon raped Tamar") and stay quiet.
      `(?:her|his|their|my friends?|my \\w+s|a \\w+s) ${ROLE} (?:keeps |still |sometimes |often |has been |is |was )?(?:hurts|hurting|hits|hitting|beats|beating|touches|touching|touched|abuses|abusing|abused|molests|molesting|molested|rapes|raping|raped|chokes|choked) (?:her|him|them)`,
      "(?:child|kid|student|pupil|girl|boy|friend|classmate|daughter|son|niece|nephew|grandchild|granddaughter|grandson|teen|teenager) (?:is being|was being|has been|had been|is getting|got|was) (?:sexually |physically )?(?:abused|molested|raped|groomed|beaten|touched inappropriately)",
      "(?:she|he|they) (?:is|was|has been|are|were|had been) being (?:sexually |physically )?(?:abused|molested|raped|groomed|beaten|hurt|hit|touched)",
      "(?:disclosed|reported|confided|told me about) (?:sexual |physical )?(?:abuse|being abused|being touched|being hurt|a rape)",
      "(?:not|never) safe at home",
      "unsafe at home",
      "(?:scared|afraid|terrified) to go home",
      // Threats against the children: "he said if i leave hell kill the kids".
      "(?:will|is going to|going to|threatens to|threatened to|said he would|said she would|hell|shell|theyll) (?:kill|hurt|murder|shoot|stab) (?:us|the kids|my kids|our kids|the children|my children|the baby|my baby|my mom)",
      `if i (?:leave|go|tell|report) (?:\\w+ ){0,4}(?:hell|shell|he will|she will|they will|he would|she would) (?:kill|hurt|take)`,
      // Control of money and of care, of the old above all: "my son takes my pension".
      "(?:takes|took|taking|steals|stole|stealing|keeps|controls|controlling) (?:all )?my (?:pension|social security|benefits?|savings|bank card|checks|cheques|money|paycheck|wages|finances)",
      "(?:wont|doesnt|will not|does not|dont|never) let me (?:see|go to|call|visit|talk to) (?:a |the |my |any )?(?:doctor|friends|family|anyone|nurse)",
      // Stalking: "my ex keeps following me", "ill never be safe".
      "(?:keeps|kept|been|always|keep) (?:following|stalking|tracking) me|(?:is|was) stalking me",
      "(?:ill|i will|i ll|im|i am) never (?:be )?safe",
      "(?:dont|do not|no longer|never) feel safe (?:around|with|at|in) (?:my ?self|home|my home|my house)",
      "(?:help|help me|please)(?: please)? (?:im|i am|i m) not safe",
      // Someone else's abuse at night: "what he does to my sister at night".
      `(?:what|the things|things) (?:he|she|they|my \\w+) (?:does|did|do|is doing|keeps doing) to (?:me|my (?:\\w+ )?(?:sister|brother|daughter|son|kids?|children|mom|mother)) (?:at night|when|in (?:the|her|his|my) (?:room|bed|bath))`,
      `(?:hits|hitting|beats|beating|hurts|hurting|chokes|choking) my (?:mom|mother|little \\w+|sister|brother|kids|children|baby)`,
      // Grooming: secret messages, pictures, meetings from an adult.
      "(?:sending|sends|sent|texting|texts|texted) me (?:sexual|sexy|dirty|explicit|inappropriate|naked|nude) (?:messages|texts|pictures|pics|photos|stuff|things)",
      "keep (?:it|this) between (?:us|you and me|me and him)",
      "(?:told|tells|made|makes|asked|asks|wants) me (?:to )?keep (?:it|this) (?:a )?secret",
      "(?:send|sending|sent) (?:him|her|them) (?:pics|pictures|photos|nudes|videos)",
      "meet (?:him|her|them) (?:secretly|in secret|alone|without (?:my|telling))",
      `(?:older|grown) (?:man|guy|woman|men) (?:\\w+ ){0,3}(?:wants|asks|asked|keeps asking|is asking|messages|texts) me`,
    ],
    /** Someone else in danger now: "my friend said shes going to kill herself tonight". */
    otherInDanger: [
      "(?:going to|gonna|about to|planning to|plans to|wants to|threatening to|threatened to|threatens to|will|tried to|trying to|talking about|talks about) (?:kill|killing|shoot|shooting|hang|hanging|hurt|hurting|harm|harming|off|end|ending) (?:herself|himself|themselves|themself)",
      "(?:going to|gonna|about to|planning to|wants to|threatening to|will) (?:end|take) (?:his|her|their) (?:own )?li(?:fe|ves)",
      "(?:going to|gonna|about to|wants to|threatening to|threatens to) (?:take|swallow) (?:them all|all of them|all (?:the|her|his|their) (?:pills|meds|tablets))",
      "(?:is|has been|been|keeps|started|starts) (?:cutting|burning|starving|hurting|harming) (?:herself|himself|themselves)",
      "(?:texted|sent|messaged|posted|wrote) (?:me |us )?(?:a )?(?:goodbye|farewell)",
      "goodbye world",
    ],
    /** Preparatory acts: putting things in order, giving things away, letters to explain. */
    preparing: [
      "(?:gave|giving|give|given) away (?:all )?my (?:\\w+ )?(?:things|stuff|belongings|possessions|dog|cat|pets?|clothes|guitar|games|books|savings)",
      `(?:gave|giving|give|given|gives) (?:all |most of )?my (?:\\w+ )?${BELONGINGS}(?: and (?:my )?(?:\\w+ )?${BELONGINGS})? away`,
      `(?:gave|giving|given) away (?:all )?(?:his|her|their) (?:\\w+ )?${BELONGINGS}`,
      `(?:saying|said|say|telling) goodbye to (?:people|everyone|my \\w+|friends|family)(?: \\w+)? without`,
      "(?:writing|wrote|made|making) (?:out )?my will (?:at|and|now|tonight|today|already)",
      "(?:changed|changing|updated|updating) (?:the|my) beneficiar\\w*",
      "collect (?:the |my )?(?:life )?insurance",
      `(?:my|the) life insurance (?:\\w+ ){0,3}(?:covers|pays|pay|pays out) (?:out )?(?:for )?suicide`,
      `(?:letters?|notes?) (?:to|for) (?:\\w+ ){0,4}in case`,
      "(?:wont|will not|dont|do not) need (?:them|it|this|these|anything|my \\w+) (?:anymore|any more|where im going|after tonight|soon)",
      "wont need them",
      "(?:made|wrote|updated|finished|sorted) (?:out )?my will",
      "(?:put|putting|getting|got) my affairs in order",
      "(?:deleted|deleting) (?:all )?my (?:accounts|social media|photos|messages)",
      "(?:letters?|notes?) (?:to|for) (?:\\w+ ){0,6}so (?:they|she|he|everyone) (?:understand|understands|will understand|know|knows|will know|wont blame)",
      "(?:said|saying|say) (?:my )?(?:last )?goodbyes? to (?:everyone|my family|my kids|my friends|everybody)",
    ],
    /** A child's words: what happens at night, a secret, "down there". */
    childWords: [
      "(?:comes|came|sneaks|snuck|gets|got|climbs) (?:in|into) my (?:room|bed) (?:at night|when (?:im|i am|everyone|mom|my)|and (?:touches|does|hurts|gets|lies)|every night)",
      "(?:does|did|doing) (?:stuff|things|bad things|weird things|sexual things) to me",
      "(?:does|did|doing) (?:bad things|weird things|sexual things) with me",
      "(?:our|a) (?:little )?secret(?: and| so| but)?(?: i| we)? (?:cant|cannot|shouldnt|must not|mustnt|dont|not to|never) tell",
      "(?:says|said|told me|tells me) (?:its|it is|its our|it was) (?:our|a) (?:little )?secret",
      "(?:says|said|told me|tells me) (?:not to|to not|never to|i cant|i cannot|i shouldnt) tell",
      "(?:hurts|touches|touched|hurt) my (?:privates|private parts|private|pee pee|bottom|butt|down there|no no)",
      "(?:sends|sent|asks|asked|wants) (?:me )?(?:for )?(?:nudes|naked pictures|pics of my body)",
      "makes me (?:touch|take off|undress)",
    ],
    /** A voice or a spirit that commands harm: a psychiatric emergency first, never a spiritual-warfare reading. */
    commandVoice: [
      "(?:the|these) voices (?:in my head )?(?:tell|told|telling|say|said|keep saying|keep telling|command|want|make) (?:me|i)",
      "(?:a|the) voice (?:in my head )?(?:tells|told|telling|says|said|keeps saying|keeps telling|commands|wants) me (?:i (?:have|must|need|should) )?(?:to )?(?:kill|hurt|cut|jump|die|harm|burn|drown|stab|end)",
      "i (?:keep |can )?(?:hear|hearing|heard) (?:voices|a voice (?:telling|that tells|saying|that says))",
      "(?:god|jesus|the devil|satan|a demon|the demons|demons|an angel|something|a spirit) (?:told|tells|is telling|keeps telling|commanded|commands|wants|ordered) me (?:i have |i must |i need |that i (?:must|have|need) )?to (?:kill|hurt|cut|jump|sacrifice|die|burn|harm|drown|stab|starve)",
      "demons? (?:are |is )?(?:inside|in) (?:me|my (?:body|head|skin))",
      "(?:cut|get|burn|bleed) (?:them|it|the demons?) out",
      "(?:i have to|i must|i need to) sacrifice (?:my ?self|my (?:baby|child|son|daughter))",
      "(?:the devil|satan|a demon|demons|the demon) (?:is |are )?(?:inside|in) (?:me|my (?:body|head|skin))",
      "get (?:it|him|them|her) out (?:of me )?with (?:a |the )?(?:knife|blade|razor|fire)",
      "(?:want|wants|wanted) me dead",
      "(?:are|is|keep|keeps) (?:trying|coming) to (?:kill|poison|hurt) me",
      "(?:seeing|hearing|see|hear) (?:things|people|shadows|voices) (?:that )?(?:arent|are not|nobody else|no one else|that want)",
      "(?:putting|put|puts|inserting) thoughts (?:in|into) my (?:head|mind)",
      "(?:tv|television|radio|phone|songs?) (?:is |are )?(?:sending|sends|giving|talking to) me (?:messages|signs|signals)",
    ],
    postpartum: [
      "(?:baby|newborn|babies|kids|children|child) (?:would be|is|d be|will be|are|would) (?:better|happier) (?:off )?without me",
      "(?:thoughts|thinking|scary thoughts|intrusive thoughts) (?:about|of) (?:hurting|harming|drowning|dropping|shaking|killing) (?:my|the|her|him) (?:baby|newborn|son|daughter)",
      "(?:hurt|harm|drown|kill|shake) (?:my|the) (?:baby|newborn)",
      "(?:dont|do not|cant|cannot) (?:feel anything for|love|bond with|stand) (?:my|the) (?:baby|newborn)",
      "postpartum (?:depression|psychosis|anxiety)",
    ],
    bullying: [
      "(?:they|everyone|people|kids|everybody|the other kids|girls|boys|my classmates) (?:at school |in my class )?(?:bully|bullies|bullied|pick on|picks on|beat me up|beats me up|laugh at me|call me names|calls me names|make fun of me|hate me)",
      "(?:bullying|bullied) me",
      "(?:bullied|cyberbullied) (?:at|in|every|all)",
    ],
    relapse: [
      "i (?:relapsed|slipped|used|drank|shot up|got high|started drinking|started using) again",
      "(?:relapsed|relapse) (?:after|again)",
      "(?:i|ive|i have|i just) relapsed",
      "(?:im|i am|i m|ive been|started|back to|i keep) (?:drinking|using|shooting up|smoking crack|gambling|cutting) again",
      `(?:\\w+) (?:days?|weeks?|months?|years?) (?:clean|sober)(?: \\w+)?(?: \\w+)? (?:and|but|i) (?:relapsed|used|drank|bought|slipped|started)`,
    ],
    trafficking: [
      "(?:they|he|she|boss|employer|owner|them|somebody|someone) (?:took|take|taken|have|keep|kept|keeps|are holding|is holding|stole|has|confiscated) (?:away )?my (?:passport|papers|documents|id|visa)",
      "(?:make|makes|made|force|forces|forced|forcing) me (?:to )?work (?:for free|without pay|and (?:i )?(?:cant|cannot) leave|all day|every day|to pay)",
      "(?:cant|cannot|not allowed to|wont let me) leave (?:the house|the apartment|this place|the farm|the factory|them)",
      "(?:owe|owes) them (?:money|a debt) (?:and|so)",
    ],
  },
  mentions: [
    "suicid\\w*",
    "(?:domestic|sexual|family|intimate partner|child|clergy) (?:violence|abuse|assault)",
    "self ?harm\\w*",
    "self ?injur\\w*",
    "kill(?:ed|ing|s)? (?:himself|herself|themselves|themself)",
    "(?:took|take|takes|taking|ended|end|ending) (?:his|her|their) (?:own )?life",
    "hang(?:ed)? (?:himself|herself|themselves)",
    "overdos\\w*",
    "(?:suicide|goodbye|farewell) (?:note|letter)s?",
    "end (?:your|ones|one s|a persons) (?:own )?life",
    "(?:take|taking) (?:your|ones) own life",
  ],
  help: [
    "(?:please |someone |somebody )?(?:help|help me|i need help|need help|please help me|sos|save me|help me please|hlp me|hlp|halp|helpp)(?: please| pls| plz| now| me)?(?: i dont know what to do)?",
    "(?:im|i am|i m) not safe(?: anymore| right now| here| tonight)?",
  ],
  cryWords:
    "rape raped raping abuse abused abusive molested molestation assaulted assault incest trafficked grooming groomed " +
    "grief grieving bereaved bereavement mourning widowed widow depressed depression hopeless hopelessness helpless worthless " +
    "suicidal suicide despair despairing desperate miscarriage miscarried stillborn stillbirth lonely loneliness alone heartbroken " +
    "devastated broken numb empty anxious anxiety panic panicking scared terrified afraid frightened trauma traumatized traumatised " +
    "ptsd crying sad sadness cutting overdose overdosed dying lost suffering pain hurting hurt selfharm unalive exhausted kms ctb bullied",
  cryFiller:
    "i im m iam am was been being feel feeling felt so very really just too much totally completely and or help me please pls plz my " +
    "a lot of in such still always ive got get getting keep today tonight now right anymore again all the time god oh",
  lastGoodbye: ["(?:goodbye|good bye|farewell)(?: forever| for good)?"],
};
