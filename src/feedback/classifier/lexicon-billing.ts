import type { LexiconEntry } from './patterns';

/**
 * Billing signals. Money nouns are weighted above generic question forms so
 * that "how do I cancel my subscription?" lands in billing, not support.
 */
const ENGLISH: readonly LexiconEntry[] = [
  ['charg*|overcharg*', 2.5],
  ['charged|billed ~ twice|double|times|again, double charg*|bill*', 2],
  ['refund*|reimburs*, money back', 3],
  ['invoice*|receipt*', 2.5],
  ['bill|bills|billing|billed', 2.5],
  ['payment*|pay|paid|paying|payed', 1.5],
  ['subscription*', 2],
  ['plan', 0.8],
  ['pro|free|paid|annual|yearly|monthly|starter|team|business|enterprise|current|cheaper ~ plan|tier', 1.2],
  ['upgrad*', 1],
  ['downgrad*', 2.5],
  ['price*|pricing|priced|cost*', 2],
  ['expensive|cheaper|afford*|overpriced|steep|bucks, too much', 1.5],
  ['vat|tax|taxes|fiscal', 2],
  // Bare "card" is often a UI element (kanban card), so require context.
  ['credit|debit|bank card, card on file, my|our|the card', 1.5],
  ['declined', 1.2],
  ['checkout', 2],
  ['coupon*|discount*, promo code', 2],
  ['trial', 1.5],
  ['renew*|autorenew*', 2],
  ['cancel*', 1.2],
  ['seat|seats, per user|seat', 1.5],
  ['monthly|yearly|annually, per|a month|year', 1],
  ['bank transfer, wire transfer, paypal, sepa', 2],
  ['credited|credit', 1],
  ['statement|accountant|accounting|finance', 1.5],
  ['amount', 1.2],
  ['fee|fees', 2],
  ['usd|eur|gbp|dollars|euros', 1.5],
  ['nonprofit*, non profit, student discount', 1],
  ['order', 0.5],
  ['my|our|the money', 2],
  ['custa|custam|cuesta|cuestan|kostet|coute|coutent', 2],
];

const SPANISH: readonly LexiconEntry[] = [
  ['reembols*, devolucion del dinero', 3],
  ['cobr*', 2.5],
  ['suscripcion*', 2],
  ['tarjeta', 1.5],
  ['precio*|caro|cara', 2],
  ['pago|pagar|pague|pagos', 1.5],
  ['cargo|cargos', 1.5],
  ['rechazad*', 1],
  ['descuento*', 2],
];

const FRENCH: readonly LexiconEntry[] = [
  ['rembours*', 3],
  ['factur*', 2.5],
  ['debit*|preleve*|prelevement*', 2.5],
  ['abonnement*', 2.5],
  ['paiement*|payer|paye', 1.5],
  ['carte bancaire, carte', 1.5],
  ['prix|tarif*', 2],
  ['cher|chere', 1],
];

const GERMAN: readonly LexiconEntry[] = [
  ['rechnung*', 2.5],
  ['abbuchung*|abgebucht|gebucht|lastschrift', 2.5],
  ['ruckerstatt*|erstatt*|gutschrift, geld zuruck', 3],
  ['abo|abos', 2.5],
  ['kundig*', 2],
  ['zahlung*|bezahl*|gezahlt', 1.5],
  ['kreditkarte*|karte', 1.5],
  ['preis*|teuer', 2],
  ['betrag', 1.5],
];

const PORTUGUESE: readonly LexiconEntry[] = [
  ['estorno|devolucao', 3],
  ['fatura*', 2.5],
  ['assinatura*', 2.5],
  ['cartao', 1.5],
  ['pagamento*|paguei', 1.5],
  ['preco*', 2],
  ['plano', 0.8],
];

export const BILLING_LEXICON: readonly LexiconEntry[] = [...ENGLISH, ...SPANISH, ...FRENCH, ...GERMAN, ...PORTUGUESE];
