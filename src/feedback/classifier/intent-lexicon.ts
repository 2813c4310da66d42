/**
 * Our own short lists for the intent signals of intent.ts, in the pattern
 * language of patterns.ts ("," whole-phrase alternatives, "|" one-token
 * alternatives, "*" prefix, "~" gap of 0-3 words, "^" sentence start).
 *
 * They name what the writer does, never what the product area is: "charged"
 * or "sync" are not here, "does not work", "please add", "how do I" and
 * "brilliant" are. That is the point of the signals: a topic word says where,
 * these say what the message wants.
 */

/** The writer reports something broken or not behaving as expected. */
export const REPORTS_BROKEN: readonly string[] = [
  // English
  'doesnt|dont|didnt|wont|cant|cannot|isnt|not|never|stopped work*|load*|open*|sync*|sav*|show*|respond*|start*|connect*',
  'broken, broke, crash*, bug, bugs, buggy, error*, fail*, glitch*, freez*, frozen, hang*, stuck, blank screen, white screen',
  'keeps ~ crashing|failing|logging|loading|spinning|freezing, nothing happens, went wrong, disappeared, vanished, missing since',
  'throws, timeout*, timed out, 500, 404, regression, since the update, after the update, out of nowhere',
  // German
  'funktioniert|geht|klappt|lauft|ladt nicht|nimmer, kaputt, absturz*, sturzt ~ ab, fehler*, fehlermeldung, hangt, hangen*, bleibt hangen',
  'seit dem update, nach dem update, lasst sich nicht, wird nicht, verschwunden, spinnt',
  // French
  'marche|fonctionne|charge pas|plus, ne marche, ne fonctionne, ne s affiche, plante, plantage, bloque*, bug*, erreur*, beug*, crash*',
  'depuis la mise a jour, apres la mise a jour, ne s ouvre, impossible de, disparu*, ecran blanc',
  // Spanish
  'no funciona|carga|abre|guarda|sincroniza|responde, falla*, fallo, se cuelga, se cierra, se traba, se congela, roto, rota',
  'desde la actualizacion, despues de la actualizacion, no me deja, desaparecio, error*, pantalla en blanco',
  // Portuguese
  'nao funciona|carrega|abre|salva|sincroniza|responde, trava*, travou, quebrado|quebrada|quebrou, falha*, deu erro, da erro',
  'desde a atualizacao, depois da atualizacao, nao consigo, sumiu, sumiram, tela branca, bugado|bugou',
  // Money that went wrong is a report too
  'charged ~ twice|again|wrong|double|too, double charge*, overcharg*, wrong amount, still ~ charged|charging|billed, payment ~ failed|declined',
  'doppelt ~ abgebucht|berechnet, zu viel ~ berechnet|abgebucht, facture|preleve|debite ~ deux fois, cobrado|cobraron|cobran ~ dos veces|doble',
  'cobrado|cobraram|cobrou ~ duas vezes|em dobro, cobranca duplicada, no refund, still waiting ~ refund, kein geld zuruck',
];

/** Words that turn a compliment into a preamble: "love it, but...". */
export const CONTRAST: readonly string[] = [
  'but, however, though, although, except, only thing, aber, jedoch, nur, allerdings, mais, cependant, sauf, pero, aunque, sin embargo, mas, porem, so que, embora',
];

/**
 * "So fast I thought it had failed", "no more crashes", "just works": a
 * problem word inside a compliment, or a problem that is gone. A match takes
 * one broken cue back and counts as pleased.
 */
export const PLEASED_SURPRISE: readonly string[] = [
  'no|zero|without|never any ~ crash*|bugs|errors|glitch*|issues|problems|hiccups, no more ~ crash*|bugs|errors|glitch*|issues|problems',
  'just works, it works, works ~ great|perfectly|flawlessly|beautifully|like a charm, ca marche, tout marche, marche parfaitement|nickel',
  'keine|kein|ohne ~ absturz*|absturze|fehler|probleme|bugs, lauft einfach, lauft super|perfekt|stabil, klappt ~ super|perfekt|prima',
  'aucun|aucune|sans|plus de ~ bug*|erreur*|souci*|probleme*|plantage*, sin|ningun|ninguna ~ error*|fallo*|problema*, ya no hay ~ error*|fallo*',
  'funciona ~ perfecto|perfectamente|genial|de maravilla|perfeitamente|muito bem, sem|nenhum ~ erro*|bug*|problema*|travamento*',
  'so|too fast|quick|smooth|easy ~ thought|thinking, thought it ~ failed|crashed|broke|broken|bugged|glitched, almost too fast|quick|easy',
  'no more crash*|errors|bugs|glitches, finally works, works now, fixed it, sorted it|out, zero issues|problems|bugs',
  'so schnell ~ dachte, si rapide ~ cru|pense, tan rapido ~ pense|crei, tao rapido ~ achei|pensei, funktioniert endlich, marche enfin, ya funciona, agora funciona',
];

/** The writer asks for a capability or a change. */
export const ASKS_FOR: readonly string[] = [
  // English
  'please add|support|allow|make|let|bring|consider, pls add, plz add, could|can|would you ~ add|allow|support|make|let',
  'would be ~ nice|great|cool|awesome|helpful|useful|amazing|good, it d be, i d love, would love, wish, hoping for, any plans',
  'feature request, add ~ option|support|ability|way|setting|toggle|mode|button|filter|export|import',
  'option to, ability to, a way to, should have|be able|let|support, need ~ option|way|ability|setting|feature, missing feature',
  'integration with, support for, api for, on the roadmap',
  // German
  'ware ~ schon|toll|super|praktisch|hilfreich|klasse|cool|gut|nett, bitte ~ hinzufugen|einbauen|erganzen|anbieten|ermoglichen',
  'hatte gern|gerne, wunsch*, wurde mich freuen, es fehlt, fehlt ~ noch|leider, konntet|konnt|konnten ihr|sie ~ einbauen|hinzufugen',
  'moglichkeit ~ zu, option ~ zu, plant ihr, geplant',
  // French
  'serait ~ bien|top|genial|pratique|utile|super|cool, pourriez|pourrais|pouvez|pourrait ~ ajouter|permettre|proposer',
  'j aimerais, j adorerais, ce serait, il manque, manque ~ une|un|la|le, possibilite de, option pour, ajouter, svp ajoutez, prevu',
  // Spanish
  'seria ~ genial|bueno|util|ideal|increible|perfecto|bueno, podrian|podrias|pueden|puedes ~ agregar|anadir|incluir|permitir',
  'me gustaria, me encantaria, ojala, falta ~ una|un|la|el, opcion de|para, agregar, anadir, estaria bien, tienen pensado',
  // Portuguese
  'seria ~ otimo|bom|legal|util|incrivel|perfeito|bacana, poderiam|podiam|podem|pode ~ adicionar|incluir|colocar|permitir',
  'gostaria, adoraria, falta ~ uma|um|a|o, opcao de|para, adicionar, colocar, sugestao, sugiro, tem previsao',
];

/** The writer asks how to do something, or where something is. */
export const ASKS_HOW: readonly string[] = [
  // English
  '^ how do|can|should|would i|we|you, how to, where do|can|is|are ~ i|we|the, is there a way, is it possible',
  '^ can i|we|you, ^ do you, ^ does it, what does, what is the ~ way|difference, help me, need help, i m trying to, im trying to',
  'cant find, cannot find, couldnt find, unable to find, not sure how, dont know how, any idea how, explain',
  // German
  '^ wie ~ kann|konnen|mache|geht|funktioniert|finde, wo ~ finde|kann|ist|sind, ^ kann man, ^ gibt es, ^ kann ich',
  'ich finde ~ nicht, weis nicht wie, hilfe bei, brauche hilfe',
  // French
  '^ comment, ou ~ trouver|trouve|est|sont, ^ est ce que|qu, ^ est il possible, ^ peut on, ^ puis je, je ne trouve, besoin d aide',
  // Spanish
  '^ como ~ puedo|hago|se|cambio|borro|exporto|agrego, donde ~ esta|estan|puedo|encuentro, ^ se puede, ^ puedo, ^ hay forma|manera',
  'no encuentro, necesito ayuda, no se como',
  // Portuguese
  '^ como ~ faco|posso|eu|mudo|altero|apago|exporto|adiciono, onde ~ fica|ficam|esta|encontro|acho, ^ da pra|para, ^ posso',
  'nao acho, nao encontro, preciso de ajuda, nao sei como',
];

/**
 * Pleased and displeased words for German, French, Spanish and Portuguese
 * with an AFINN-like valence (-5..5); English comes from the AFINN-165 list
 * of the `sentiment` package. `word:valence`, one folded word each; a negator
 * right before one flips it (intent.ts), as the library does for English.
 * Words that are also common English or name a topic ("show", "legal") are
 * left out: they would fire on English text.
 */
export const VALENCE: readonly string[] = [
  // English words AFINN-165 does not rate but feedback uses for praise
  'quick:2 fast:2 snappy:2 speedy:2 smooth:2 seamless:2 intuitive:2 slick:2 polished:2 sorted:1 lifesaver:3',
  'flawless:3 flawlessly:3 effortless:2 painless:2 rocks:2 kudos:3 props:2 stellar:3 superb:3',
  // German
  'toll:3 super:3 klasse:3 spitze:3 genial:3 großartig:3 hervorragend:3 perfekt:3 wunderbar:3 begeistert:3',
  'liebe:3 lieben:3 danke:2 dankeschön:2 gut:2 prima:2 schnell:1 einfach:1 praktisch:2 hilfreich:2 zufrieden:2',
  'beeindruckt:3 weltklasse:4 traumhaft:3 mega:2 tolle:3 toller:3 tolles:3 gute:2 guter:2 gutes:2 perfekte:3',
  'wunderbare:3 geniales:3 hammer:3 spitzenmäßig:3 einwandfrei:3 blitzschnell:2',
  'schlecht:-3 furchtbar:-3 schrecklich:-3 nervig:-2 ärgerlich:-2 enttäuscht:-2 enttäuschend:-2 katastrophe:-3',
  'katastrophal:-3 mies:-3 unbrauchbar:-3 frustrierend:-2 peinlich:-2 sauer:-2 wütend:-3',
  // French
  'génial:3 géniale:3 bravo:3 merci:2 parfait:3 parfaite:3 excellent:3 excellente:3 magnifique:3 incroyable:3',
  'adore:3 top:2 chapeau:3 formidable:3 impeccable:3 ravi:3 ravie:3 rapide:1 pratique:2 efficace:2 bien:1',
  'nul:-3 nulle:-3 horrible:-3 déçu:-2 déçue:-2 décevant:-2 énervant:-2 pénible:-2 inutilisable:-3',
  'lamentable:-3 furieux:-3 agacé:-2 catastrophique:-3',
  // Spanish
  'excelente:3 increíble:3 perfecto:3 perfecta:3 maravilloso:3 maravillosa:3 encanta:3 gracias:2',
  'buenísimo:3 buenísima:3 buena:1 bueno:1 fantástico:3 fantástica:3 felicidades:3 fácil:1 rápido:1',
  'rápida:1 útil:2 contento:2 contenta:2 feliz:3 crack:2 cracks:2',
  'malo:-3 mala:-3 pésimo:-3 pésima:-3 terrible:-3 molesto:-2 decepcionado:-2 decepcionada:-2 frustrante:-2',
  'inservible:-3 harto:-3 harta:-3',
  // Portuguese
  'ótimo:3 ótima:3 incrível:3 perfeito:3 perfeita:3 maravilhoso:3 maravilhosa:3 adoro:3 amo:3 obrigado:2',
  'obrigada:2 valeu:2 parabéns:3 sensacional:3 satisfeito:2 satisfeita:2 bacana:2 top:2',
  'ruim:-3 péssimo:-3 péssima:-3 horrível:-3 decepcionante:-2 chato:-2 irritante:-2 inútil:-3',
];

/** Negators of the four languages (English ones come with the library's scoring). */
export const NEGATORS: readonly string[] = [
  'nicht',
  'kein',
  'keine',
  'nie',
  'pas',
  'jamais',
  'no',
  'nunca',
  'não',
  'nem',
  'sin',
  'sem',
  'not',
];
