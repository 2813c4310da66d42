import type { LexiconEntry } from './patterns';

/**
 * Neutral or off-topic signals. "other" also has a base score in the scorer,
 * so these entries only need to push back against weak accidental cues
 * (e.g. "lovely" in a remark about the weather).
 */
export const OTHER_LEXICON: readonly LexiconEntry[] = [
  ['just testing, testing the, test message, this is a test, please ignore, ignore this', 2.5],
  ['test|testing', 0.4],
  ['probando|testando|ausprobier*|probier*|essai', 1.5],
  ['just looking, just checking, checking it out, de passage, nur ~ aus', 2],
  ['interview|article|podcast|journalist|press, blog post', 1.5],
  ['partnership|partner|collaborat*|sponsor*|affiliate', 1.5],
  ['jobs|hiring|careers|internship, job opening*, open position*', 2],
  [
    'no feedback, nothing to report|add|say, no comment*, sin comentarios, nada que reportar, rien a signaler, rien de special, nichts zu melden, keine anmerkung*, nenhum comentario, nada a declarar, sem comentarios',
    2.5,
  ],
  ['ok i guess, it s ok, its ok, meh, so so, nothing special, neutral, mixed feelings, not sure yet, undecided', 2],
  ['still deciding, evaluating|evaluated|evaluando|avaliando|comparing, will report back, we ll see', 1.5],
  // Greetings open every kind of message; only an empty "anyone there?" is neutral.
  ['anyone|anybody there|reading|home', 1],
  ['say ~ hi|hello|hey', 1.5],
  ['switching to, another tool, competitor, exploring|exploring options, looking around', 1],
  ['came from, found you, product hunt, hacker news', 1.5],
  ['getting started, just signed up, new here, first day', 1.5],
  ['my manager|boss, mi jefe, asked me to, asked everyone', 1.5],
  ['for now, por ahora, por enquanto, no momento, pour l instant, im moment, alles in ordnung', 1],
  ['weather|lunch|weekend', 1],
];
