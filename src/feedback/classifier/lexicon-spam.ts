import type { LexiconEntry } from './patterns';

/**
 * Promotional-junk vocabulary. Single words such as "crypto" or "bitcoin" are
 * deliberately weak: a customer may ask to pay with bitcoin. Only several
 * promo cues together (plus links) cross the spam threshold.
 */
export const SPAM_LEXICON: readonly LexiconEntry[] = [
  ['casino*|jackpot, free spins', 3],
  ['bonus|bonu', 1.5],
  ['betting|apuestas|apostas|sportwett*, paris sportifs', 2],
  ['crypto*|cripto*|nft|nfts', 1.5],
  ['bitcoin|btc|ethereum|eth|usdt', 1],
  ['forex|airdrop*', 2.5],
  ['trading bot, trading signals, signals group, 100x, 10x, 1000x', 2],
  ['guaranteed|garantizad*|garantid*|garanti|garantiert', 1.5],
  ['profit|profits|gains|passive income', 1.5],
  ['double your money, double ~ money', 3],
  ['invest*|inversion|investir|investimento', 1],
  ['earn|ganhe|gana|gagnez|verdienen', 1.5],
  ['make|making money, money online, money fast, fast cash', 3],
  ['dinero rapido|facil, dinheiro facil|rapido, argent facile*, geld verdienen', 3],
  ['from home, von zu hause, desde casa, de casa, a domicile', 1.5],
  ['per|a week|day, por semana|dia, pro woche|tag, par semaine|jour', 1],
  ['viagra|cialis|pharma*|pills|replica*|rolex', 3],
  ['cheap|cheapest', 1],
  ['win|won ~ iphone|prize|cash|vacation, win|won ~ gift card, you have won, you won, winner', 2],
  ['buy|get ~ followers|likes|views|subscribers|reviews', 3],
  ['seo|backlink*', 2.5],
  ['guest post*, rank your website|site, first page of google, high da', 3],
  ['hot singles, meet you tonight', 3],
  ['singles|dating|sexy|xxx|porn*|escort*', 2],
  ['loan|loans|payday', 2],
  ['bad credit, no credit check', 2],
  ['click here|now|below, klicken|clique|cliquez, haz clic', 2],
  ['dm me, whatsapp, telegram', 1.5],
  ['limited offer|time, act now, offer ends', 2],
  ['sunglasses|outlet|wholesale', 1.5],
  ['no experience needed|required', 2.5],
  ['join|register now, sign up now', 1.5],
  ['visit ~ my|our site|website, check out my|our site|website, visit today', 1.5],
  ['call now, top rated, best prices|price', 1.5],
];
