import type { LexiconEntry } from './patterns';

/**
 * Support signals: how-to questions, "can't find", help requests and
 * account administration. Topic nouns are weak on purpose: a question about
 * a topic is support, a complaint about the same topic is usually a bug.
 */
const ENGLISH: readonly LexiconEntry[] = [
  ['how do|can|should|would|does i|we|you, how to', 2],
  ['where do|can i|we, where is|are|s, where to', 2],
  ['cant|cannot|couldnt|unable|dont ~ find, not sure where', 2.5],
  ['help', 1],
  ['need help, help me|us, can|could you ~ help, please help, help with, any help', 2.5],
  ['question*', 1.5],
  ['is it possible, is there a|any way, what can i do, what should i do', 2],
  ['can i|we', 0.8],
  ['do you have|support|offer|provide', 1.2],
  ['what is|does|do|are, what s, who should|do|can, when will, how long, how many', 0.5],
  ['what does ~ mean', 2],
  ['explain*|clarif*|confused|confusing|understand', 1.5],
  ['documentation|docs|tutorial|guide|instructions|tutoriel|documentacion|documentacao|doku|dokumentation|anleitung|guia', 1.5],
  ['difference|diferencia|diferenca|unterschied', 1.2],
  // Information-seeking questions usually open with one of these words.
  ['^ how|what|where|which|who|when|whats|wheres', 1.2],
  ['^ can|could|may|do|should i|we, ^ is|are there, ^ is it|this, ^ does|do|will it|this|the', 1.2],
  [
    '^ como|donde|cual|cuando|quien|puedo|hay, ^ comment|ou|quel|quelle|quand|combien|puis|peut, ^ est ce, ^ wie|wo|was|welche|wann|kann|konnen|gibt|muss, ^ onde|qual|quando|quanto|posso|existe, ^ tem como',
    1.2,
  ],
  ['walk me through, point me, get in touch, call me, someone from', 2],
  ['reach out', 1],
  // Bare "contacts" is a product entity here, so only the verb form counts.
  ['contact ~ us|you|support|someone|about|regarding', 2],
  ['set up, setup|setting|configur*|install*|onboard*|migrat*|connect*|embed*', 1],
  ['forgot*, reset ~ password', 2.5],
  ['password', 1.5],
  ['locked ~ out, lost ~ phone, recover*', 2],
  ['account', 0.5],
  ['delete|close|remove|deactivate my ~ account|data', 2.5],
  ['change|update|transfer ~ email|owner*|username', 1.5],
  ['invite*|ownership, team member*', 1],
  ['cant|cannot|unable|couldnt ~ login|signin|access, cant|cannot|unable|couldnt ~ log|sign in', 1.5],
  [
    'api key|token*, rate limit*, sdk, ip address*, whitelist*, dns, domain, verify|verification, gdpr, dpa, privacy, region, stored, limit',
    0.7,
  ],
  ['trying to, tried to', 0.8],
  ['not sure how|what|where|whether, any pointers|tips|advice', 1.5],
  ['who ~ ask|contact, who ~ talk to', 1.5],
  // Yes/no questions open with an auxiliary; "could/would" are left out
  // because they usually introduce polite feature requests instead.
  ['^ do|does|did|will|can, ^ se puede, ^ es posible', 0.7],
];

const SPANISH: readonly LexiconEntry[] = [
  ['como ~ puedo|hago|cambio|configuro|activo|se', 2.5],
  ['no encuentro, donde esta|estan|puedo|se', 2.5],
  ['ayuda|ayudar*', 1.5],
  ['necesito ayuda', 2.5],
  ['pregunta|duda', 1.5],
  ['migrar|cuenta|contrasena', 0.8],
  ['cual|cuales es|son', 1],
];

const FRENCH: readonly LexiconEntry[] = [
  ['comment puis|faire|je|on|ajouter|modifier|changer|configurer|supprimer|activer, comment est ce', 2.5],
  ['ne trouve pas, trouve pas, ou est|sont, ou se trouve, ou puis je', 2.5],
  ['aide|aidez', 1.5],
  ['besoin d aide', 2.5],
  ['compte, mot de passe', 0.8],
  ['quel|quelle|quels est|sont', 1],
];

const GERMAN: readonly LexiconEntry[] = [
  ['wie ~ ich|wir|man', 2],
  ['finde ~ nicht, nicht gefunden, nichts ~ gefunden, wo ist|sind|finde', 2.5],
  ['hilfe|helfen', 1.5],
  ['brauche hilfe', 2.5],
  ['frage', 1.5],
  ['einricht*|einstell*|konfigur*|passwort|konto', 0.8],
  ['was ist|sind|bedeutet', 1],
];

const PORTUGUESE: readonly LexiconEntry[] = [
  ['como ~ faco|posso|configuro|altero|mudo', 2.5],
  ['nao encontro, onde ~ encontro|fica|esta', 2.5],
  ['ajuda', 1.5],
  ['preciso de ajuda', 2.5],
  ['duvida|pergunta', 1.5],
  ['senha|conta', 0.8],
  ['qual|quais e|sao', 1],
  ['entender|comprendre|verstehen', 1],
];

export const SUPPORT_LEXICON: readonly LexiconEntry[] = [...ENGLISH, ...SPANISH, ...FRENCH, ...GERMAN, ...PORTUGUESE];
