import type { LexiconEntry } from './patterns';

/**
 * Feature-request signals: request forms ("please add", "would be nice"),
 * wishes and gaps ("missing", "there is no"). Product nouns like "dark mode"
 * are only weak cues because people also report bugs about existing features.
 */
const ENGLISH: readonly LexiconEntry[] = [
  ['feature request*, feature idea*', 3],
  ['^ request, requesting', 1.2],
  ['would|d ~ be ~ nice|great|awesome|cool|helpful|useful|amazing|better|handy|good|ideal|fantastic|lovely|brilliant', 2.5],
  ['would help|make|save, it d help', 2],
  ['would|d ~ love|like|appreciate, id love|like', 2],
  ['if you ~ build|add|implement|ship|offer, beta test*', 1.2],
  ['please|pls|plz|can|could|would|maybe ~ add|adding|implement*|build|introduce|include|integrate', 2.5],
  ['add|adding|added', 1],
  ['wish*', 2],
  ['suggestion*|suggest*|idea|proposal|propose', 1.8],
  ['option|ability|possibility|way to|for', 1],
  ['allow*, let|enable|give us|me', 1.5],
  // "let me know" is a sign-off, not a request to be allowed something.
  ['let me|us know', -1.5],
  ['support for, supporting', 1.5],
  ['integration|integrations with|for|into|to, integrate with', 1.5],
  ['integration|integrations', 0.5],
  ['plans to, any plans, roadmap, on the cards, in the works', 1.5],
  ['missing|lacks|lacking, there is no, theres no, still no, no way to', 1.5],
  ['we ~ need|want', 1.2],
  ['should have|support|add|offer|allow|include, should be able', 2],
  ['next step', 1],
  ['feature|features', 0.8],
  ['please|pls|plz', 0.5],
  ['please|pls|plz ~ make|consider|bring|provide|offer', 2],
  ['^ more, pretty please, hoping you|for', 1.2],
  ['how about, what about', 1],
  ['would|gladly|happily ~ pay', 2.5],
  ['custom|customiz*|customis*|personaliz*|configurable', 1],
  [
    'dark mode, mobile app, android app, ios app, api endpoint, keyboard shortcut*, saml, single sign on, two factor, 2fa, shortcut*, undo, bulk|recurring, schedul*',
    1,
  ],
];

const SPANISH: readonly LexiconEntry[] = [
  ['seria|estaria ~ genial|bueno|util|ideal|bien|excelente|mejor|perfecto|increible', 2.5],
  ['podrian|pueden|podrias|podran ~ agregar|anadir|incluir|implementar|sumar|integrar', 3],
  ['agregar|anadir|incluir', 1],
  ['me|nos gustaria', 2],
  ['ojala', 2],
  ['falta|faltan, echo de menos', 1.5],
  ['sugerencia|sugiero|propongo|propuesta', 2],
  ['modo oscuro, opcion para|de', 1.2],
  ['integracion|integrar', 1.5],
  ['poder|poderse', 0.5],
  ['necesitamos|necesitaria*|necesitariamos, hace falta', 1.5],
];

const FRENCH: readonly LexiconEntry[] = [
  ['serait ~ bien|top|genial|super|utile|pratique|ideal|parfait|cool|chouette', 2.5],
  ['j aimerais|aimerai, nous aimerions', 2],
  ['pourriez|pouvez|pourriez vous ~ ajouter|integrer|proposer|prevoir|permettre', 3],
  ['ajouter|ajout', 1.5],
  ['il manque, manque', 1.5],
  ['mode sombre, possibilite de, fonctionnalite*', 1.2],
  ['souhait*', 1.2],
  ['pouvoir', 0.5],
];

const GERMAN: readonly LexiconEntry[] = [
  ['ware ~ toll|schon|super|gut|praktisch|klasse|hilfreich|cool|nett|sinnvoll|genial|prima', 2.5],
  ['wunsche mir, wunsch*', 2],
  ['fugt ~ hinzu, hinzufug*', 2.5],
  ['es fehlt', 1],
  ['moglichkeit|funktion', 1.2],
  ['dunkelmodus*|darkmode', 1.5],
  ['vorschlag', 2],
  ['wenn es ~ gabe, gabe es', 2],
  ['konnte|konnten man', 1],
  ['bitte', 0.3],
  ['einbauen|einfugen|einfuhren|anbieten|integrieren', 1.5],
  ['konntet|konnt|konntest ihr|sie|du', 1.5],
];

const PORTUGUESE: readonly LexiconEntry[] = [
  ['seria ~ otimo|otima|bom|boa|legal|util|interessante|incrivel|perfeito', 2.5],
  ['adicion*', 1.5],
  ['poderiam|podiam|podem ~ adicion*|incluir|criar|implementar', 3],
  ['gostaria', 2],
  ['sugiro', 2],
  ['modo escuro, opcao de|para', 1.2],
  ['integracao', 1.5],
];

export const FEATURE_REQUEST_LEXICON: readonly LexiconEntry[] = [...ENGLISH, ...SPANISH, ...FRENCH, ...GERMAN, ...PORTUGUESE];
