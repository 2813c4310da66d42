import type { LexiconEntry } from './patterns';

/**
 * Praise signals. Every entry is negatable ("not great", "pas terrible"
 * aside) because a negated compliment is a complaint, not praise.
 */
const ENGLISH: readonly LexiconEntry[] = [
  ['love|loved|loving|luv|lovin', 2],
  ['great|awesome|amazing|excellent|fantastic*|wonderful|brilliant|superb|outstanding|stellar', 1.8],
  ['incredible|incredibly|impressive|impressed', 1.8],
  ['perfect|perfectly|flawless|flawlessly', 2],
  ['beautiful|beautifully|gorgeous|elegant|lovely', 1.8],
  ['nice|good|cool|neat|solid|sweet', 1],
  ['best', 1.5],
  ['happy|glad|pleased|satisfied|thrilled', 1.5],
  ['thank*|thx|thnx|ty', 1.2],
  ['kudos|bravo|congrats|congratulations, well done, hats off', 2.5],
  ['great|good|nice|awesome|amazing job|work, keep up, keep it up', 2.5],
  ['game changer, gamechanger, lifesaver, life saver', 2.5],
  ['saves|saved|save ~ time|hours|me|us', 2],
  ['recommend*', 2],
  ['10 10, 5 stars, five stars, 11 10', 2.5],
  ['easy|simple to use|setup|embed|integrate|understand', 1.5],
  ['intuitiv*|smooth*|seamless*|clean*|polished|slick|snappy, hands down', 1.5],
  ['professional|useful|valuable, worth it', 1.2],
  ['just works, works ~ perfectly|great|well|flawlessly|fine, like a charm, rock solid, reliable', 2],
  ['fast|quick|quickly|speedy', 0.7],
  ['helpful|helped', 1.5],
  ['exactly what ~ needed|wanted', 2.5],
  ['favorite|favourite|enjoy*|appreciate*|delight*', 1.5],
  ['listens|listening, you care, responsive team', 1],
  ['wow', 0.8],
  ['big|huge fan, fan of', 2],
  ['delivers|facilitou|facilita|facilite|erleichtert|ahorra|economiza', 1.5],
  ['nailed|crushed it, well made|built|designed|thought|done, top notch, first class, blown away, mind blowing, unreal', 2],
  ['best decision|thing|tool|app|purchase|investment', 1.5],
  ['in|within minutes|seconds, in no time', 1],
];

const SPANISH: readonly LexiconEntry[] = [
  ['me encanta*|encantan, encanta', 2.5],
  ['excelente|genial|increible|maravillos*|espectacular', 1.8],
  ['gracias|agradezco', 1.2],
  ['muy bueno|buena|util, buenisim*', 2],
  ['bueno|buena', 0.8],
  ['felicidades|felicitaciones|enhorabuena', 2.5],
  ['perfecto|perfecta', 2],
  ['recomiendo', 2],
  ['rapidisim*|rapida|rapido', 1.2],
  ['me gusta', 1.5],
  ['buen trabajo', 2.5],
];

const FRENCH: readonly LexiconEntry[] = [
  ['j adore, adore|adorent', 2.5],
  ['formidable|magnifique|incroyable|parfait*|nickel', 1.8],
  ['super|top', 1],
  ['merci', 1.2],
  ['tres bien|bon|bonne|pratique, bonne appli*, bon|beau travail', 2],
  ['rien a redire', 2.5],
  ['felicitations', 2.5],
  ['j aime', 1.5],
  ['content|contente|satisfait|ravi|ravie', 1.5],
  ['chapeau', 2],
  ['recommande', 2],
];

const GERMAN: readonly LexiconEntry[] = [
  ['klasse|prima|spitze|wunderbar|ausgezeichnet|fantastisch|hervorragend', 1.8],
  // Bare "toll" collapses to "tol", the same key as English "tool".
  ['ist|sind|echt|sehr|wirklich|einfach|richtig toll, toll gemacht', 1.8],
  ['grossartig*|perfekt', 2],
  ['danke|dankeschon', 1.2],
  ['liebe|lieben', 1.5],
  ['gute arbeit, gut gemacht, klasse gemacht, super gemacht', 2.5],
  ['zufrieden|begeistert|beeindruckt', 2],
  ['empfehle*|empfehlenswert', 2],
  ['ubersichtlich|schnell', 1],
  ['richtig|echt|sehr gut|gutes|guter', 1.8],
  ['macht ~ was sie soll, macht genau was', 2],
];

const PORTUGUESE: readonly LexiconEntry[] = [
  ['adorei|amei|adoro|amo', 2.5],
  ['otimo|otima|incrivel|maravilhos*|perfeito|perfeita|sensacional', 1.8],
  ['obrigad*|valeu', 1.2],
  ['parabens', 2.5],
  ['muito bom|boa|util', 2],
  ['facil de usar, facil', 1],
  ['boa|bom', 0.8],
  ['lindo|linda|curti|curtimos|demais', 1.5],
];

// Polite sign-offs are not compliments; cancel out the "thanks" they contain.
const POLITENESS: readonly LexiconEntry[] = [
  ['in advance', -1.2],
  ['merci d avance, gracias de antemano, gracias por adelantado, danke im voraus, obrigado desde ja, desde ja', -1.2],
];

export const PRAISE_LEXICON: readonly LexiconEntry[] = [...ENGLISH, ...SPANISH, ...FRENCH, ...GERMAN, ...PORTUGUESE].map(
  ([pattern, weight]) => [pattern, weight, true] as const,
);

export const POLITENESS_LEXICON: readonly LexiconEntry[] = POLITENESS;

/**
 * Sarcasm markers. They only matter when the same text also carries a
 * complaint (bug/billing cues or a low rating): "great, another crash".
 */
export const SARCASM_PATTERNS: readonly string[] = [
  'oh ~ great|wonderful|joy|nice|perfect|brilliant|wow|fantastic|amazing|lovely',
  'great|wonderful|fantastic|amazing|awesome|love|perfect|brilliant another',
  'just great|perfect|wonderful|brilliant|fantastic',
  'thanks for nothing, thank you for nothing, thanks a lot, yeah right, so much fun, what a joke',
  'love|amazing|great|nice|wonderful|awesome|impressive how, love when, love it when, love that it',
  'really|just loving it',
  'only took, took only, only ~ seconds|minutes|hours',
  'incredible|great|amazing|brilliant engineering, genius',
  'wow',
  'gracias por nada, merci pour rien, danke fur nichts, obrigado por nada, super toll, genial otra vez',
];
