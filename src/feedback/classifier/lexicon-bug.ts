import type { LexiconEntry } from './patterns';

// Things users try to do; negated ("won't load", "can't submit") they describe a failure.
const BROKEN_ACTIONS =
  'load*|open*|start*|save*|saving|submit*|upload*|sync*|display*|render*|update*|launch*|connect*|respond*|print*|' +
  'download*|import*|export*|click*|tap*|scroll*|type*|select*|send*|arrive*|refresh*|finish*|complete*';

/**
 * Bug signals. Weights: ~3 unambiguous phrase, ~2 clear keyword, ~1 weak cue.
 * Nouns such as "bug" or "crash" are negatable so that "no crashes" or
 * "not a bug" do not count as a bug report.
 */
const ENGLISH: readonly LexiconEntry[] = [
  ['crash*|crahs*|chrash*', 2.5, true],
  ['bug|bugs|buggy|bugged', 2, true],
  ['glitch*', 2, true],
  ['error*|erors', 2, true],
  ['exception*|stacktrace|typeerror|referenceerror|syntaxerror|uncaught|undefined, stack trace', 1.5],
  ['throws|threw|throwing ~ error*|exception*|me', 1.5],
  ['401|403, access|permission denied, forbidden, unauthorized', 1.5],
  ['404|500|502|503|504', 1.5],
  ['timeout*, timed out', 1.5],
  ['outage*|downtime', 2, true],
  ['broken|broke|breaks', 2.5],
  ['regression', 2],
  ['not|dont|doesnt|didnt|isnt|wont|aint work*', 3],
  ['stopped|quit work*', 3],
  ['no longer', 2],
  ['not ~ anymore, nothing ~ works', 2],
  // A negated action verb ("won't load", "can't submit") is the most common
  // shape of an informal bug report.
  [`wont|doesnt|dont|didnt|cant|cannot|isnt|not|never|unable|fails|failed ~ ${BROKEN_ACTIONS}`, 2],
  ['fail*', 2],
  ['does|did nothing, no hace nada, ne fait rien, tut nichts, passiert nichts, nao faz nada, nada acontece', 2.5],
  ['snaps|jumps|goes back, reverts|resets ~ itself', 1.5],
  // Software acting on its own is rarely intended behaviour.
  ['by itself, on its own, se cierra sola, tout seul, von selbst, sozinho|sozinha', 2],
  ['is|are|went|goes down, down again', 1.5],
  ['delivered|sent|received|shown|showing|appears|fired ~ twice|times', 1.5],
  ['instead of', 1],
  ['freez*|froze|frozen|hangs|hanging|unresponsive, not responding', 2.5],
  ['stuck|forever|spinning', 1.5],
  ['lag*|laggy|slow*|sluggish', 1.5],
  ['take*|took|taking ~ seconds|minutes ~ load*', 2],
  ['blank, white screen, black screen, empty page', 2],
  ['duplicat*|doubled', 1.5],
  ['disappear*|vanish*|gone|lost, data loss, not there', 1.5, true],
  ['desaparec*|sumiu|sumiram|zerou|apagou|disparu|disparait|disparaissent|verschwunden|verschwinden', 1.5],
  ['out of nowhere, for no reason, sin razon, sans raison, grundlos, do nada', 1.2],
  ['late|delayed, too early, only the first|last', 1],
  ['still show*|appear*|visible|listed|there', 1.5],
  ['garbled|gibberish|mojibake|kauderwelsch|zeichensalat, weird characters', 2],
  ['wrong|incorrect*|weird|strange|odd, off by one', 1.2],
  ['falsch*|errado|errada|errados|faux|fausse|fausses', 1.2],
  ['empty|vazio|vazia|vide|leer', 1.2],
  ['en|em double|dobro, doppelt, duplicado|duplicados|duplique*', 1.5],
  ['look*|seems|seem off', 1],
  ['logged|logs|log|kicked|kicks|kick me out, session expired', 2],
  ['please|pls|plz fix, fix this|it|asap|pls, needs fixing', 2.5],
  ['fix|fixed', 0.8],
  ['issue|issues|problem|problems', 1, true],
  ['keeps', 0.8],
  ['every|each ~ time, everytime|evrytime', 1],
  ['again', 0.5],
  ['reproduc*|repro|expected|actual', 1.5],
  ['unusable|unreadable|unclickable', 3],
  ['went wrong', 2],
  ['nothing ~ happen*|saved|save*|arrive*|load*|show*|work*', 2.5],
  ['greyed|grayed out', 1.5],
  ['overlap*|misaligned|cropped, cut off', 1.5],
  ['invalid', 1],
  ['cors|console', 1.2],
  ['silently|randomly|intermittent*', 1.5],
  // "since the update" marks a regression even when no bug word is used.
  ['since|after ~ update*|release*|migration|deploy*|upgrade', 1.2],
  ['since ~ yesterday|morning|today|monday|tuesday|wednesday|thursday|friday|week', 1],
];

const SPANISH: readonly LexiconEntry[] = [
  ['no funciona*|sirve, dejo de funcionar', 3],
  ['no va', 1],
  ['no ~ carga|abre|guarda|deja|responde|anda|llega*', 2.5],
  ['se cierra|cuelga|bloquea|traba|congela|rompe', 2.5],
  ['falla*|fallo|fallando', 2],
  ['se pierde|perdio, perdi|borro', 1.5],
  ['vacio|vacios|vacia|vacias, en blanco, pantalla blanca', 1.5],
  ['lento|lenta|tarda', 1.5],
  ['roto|rota', 2],
  ['desde ~ actualizacion', 1.2],
  ['raro|rara', 1],
];

const FRENCH: readonly LexiconEntry[] = [
  ['marche|fonctionne pas|plus', 3],
  ['plante|plantage|plantent', 2.5],
  ['erreur*', 2, true],
  ['page blanche, ecran blanc, rien ne se passe, rien ne s affiche', 2.5],
  ['charge|ouvre|affiche|enregistre|sauvegarde pas', 2.5],
  ['bloque*|fige*', 1.5],
  ['lent|lente', 1.5],
  ['depuis ~ mise a jour', 1.2],
  ['impossible de', 1.2],
];

const GERMAN: readonly LexiconEntry[] = [
  ['funktioniert|geht|klappt ~ nicht', 3],
  ['sturzt ~ ab, absturz*|abgesturzt', 3],
  ['fehler*', 2, true],
  ['hangt|hangen|eingefroren|friert', 2],
  ['ladt|speichert|offnet ~ nicht', 2.5],
  ['kaputt', 2.5],
  ['weisse|leere seite, leerer bildschirm', 2.5],
  ['langsam', 1.5],
  ['nicht mehr', 1.5],
  ['seit|nach ~ update', 1.2],
  ['fehlen|fehlt', 0.5],
];

const PORTUGUESE: readonly LexiconEntry[] = [
  ['nao funciona*, parou de funcionar, nao esta funcionando', 3],
  ['trava*|travou|travando|congela*', 2.5],
  ['erro|erros', 2, true],
  ['falha*|falhou', 2],
  ['bugado|bugou', 2.5],
  ['nao ~ carrega*|abre|salva*|salvo|salvas|envia*|aparece*|chega*', 2],
  ['fecha sozinho, deu errado, fica em branco, tela branca, em branco', 2.5],
  ['demora', 1.5],
];

export const BUG_LEXICON: readonly LexiconEntry[] = [...ENGLISH, ...SPANISH, ...FRENCH, ...GERMAN, ...PORTUGUESE];
