import { CATEGORY_HINTS, type CategoryHint, FEEDBACK_CLASSIFICATIONS, classifyFeedback } from './classify-feedback';
import { SUMMARY_MAX_LENGTH, summarize } from './summarize';

const classOf = (text: string, categoryHint: CategoryHint | null = null, rating: number | null = null) =>
  classifyFeedback({ text, categoryHint, rating }).classification;

describe('classifyFeedback', () => {
  describe('category hint', () => {
    it('is overridden by clear evidence for another class', () => {
      expect(classOf('the export button crashes every time', 'praise')).toBe('bug');
      expect(classOf('I was charged twice this month, please refund', 'feature_request')).toBe('billing');
    });

    it('decides ambiguous text', () => {
      expect(classOf('the numbers on the stats page look off to me', 'bug')).toBe('bug');
      expect(classOf('something about the notifications', 'bug')).toBe('bug');
      expect(classOf('the sidebar', 'feature_request')).toBe('feature_request');
    });

    it('ignores values that are not known hints', () => {
      const text = 'Our team is five people.';
      const bogus = classifyFeedback({ text, categoryHint: 'spam' as unknown as CategoryHint });
      expect(bogus).toEqual(classifyFeedback({ text }));
    });
  });

  describe('spam', () => {
    it.each([
      ['keyboard mashing', 'asdfghjkl qwerty asdf'],
      ['held-down key', 'aaaaaaaaaaaaaaaaaaaaaa'],
      ['punctuation noise', '!!!!!!!!!!!!!!!!'],
      ['only links', 'https://a.example https://b.example/x'],
      ['link-stuffed promo', 'BUY CHEAP FOLLOWERS http://x.biz http://x.biz/a http://x.biz/b'],
      ['crypto promo', 'Earn $5000 a week from home with our crypto trading bot, guaranteed profits'],
      ['casino promo', 'Best online casino, free spins and a 200% welcome bonus at www.spin.example'],
    ])('flags %s', (_name, text) => {
      expect(classOf(text)).toBe('spam');
    });

    it('beats any category hint', () => {
      for (const hint of CATEGORY_HINTS) {
        expect(classOf('qwertyuiop asdfghjkl', hint)).toBe('spam');
        expect(classOf('Great app! Cheap viagra at http://pharma.example', hint, 5)).toBe('spam');
      }
    });

    it('does not treat emoji-only reactions as junk', () => {
      expect(classOf('👍👍👍👍')).not.toBe('spam');
    });

    it('does not flag genuine feedback that mentions a link or crypto', () => {
      expect(classOf('The page https://app.example.com/settings shows a 500 error')).toBe('bug');
      expect(classOf('Can I pay my subscription with bitcoin?')).toBe('billing');
    });
  });

  describe('language handling', () => {
    it.each([
      ['app crashs when i open settings', 'bug'],
      ['login doesnt work on safari', 'bug'],
      ['the page no longer loads', 'bug'],
      ['refund pls', 'billing'],
      ['cant login, forgot my password', 'support'],
      ['La aplicación no funciona', 'bug'],
      ["L'export ne marche pas", 'bug'],
      ['Die Suche funktioniert nicht', 'bug'],
      ['O app não funciona', 'bug'],
      ['Quiero un reembolso', 'billing'],
      ['Je veux un remboursement', 'billing'],
      ['Die Rechnung ist falsch', 'billing'],
      ['cobrança duplicada no cartão', 'billing'],
      ['Ce serait bien d’avoir un mode sombre', 'feature_request'],
      ['Me encanta la nueva interfaz', 'praise'],
    ])('%s -> %s', (text, expected) => {
      expect(classOf(text)).toBe(expected);
    });

    it('respects negation', () => {
      expect(classOf('no bugs, no crashes, just works')).toBe('praise');
      expect(classOf('not great, not happy: it keeps freezing')).toBe('bug');
    });

    it('reads sarcasm as a complaint', () => {
      expect(classOf('great, another crash after the update')).toBe('bug');
      expect(classOf('Oh wonderful, logged me out again. Really loving it.', null, 1)).toBe('bug');
    });

    it('picks the actionable intent in mixed feedback', () => {
      expect(classOf('love the app but I was charged twice')).toBe('billing');
      expect(classOf('love it, would be even better with dark mode')).toBe('feature_request');
      expect(classOf('Really like it, but the sidebar overlaps the content on mobile')).toBe('bug');
    });
  });

  describe('rating', () => {
    it('is a weak prior that never overrides clear text', () => {
      expect(classOf('the export crashes every time', null, 5)).toBe('bug');
      expect(classOf('Absolutely love this app!', null, 1)).toBe('praise');
    });

    it('raises confidence when it agrees with the text', () => {
      const withRating = classifyFeedback({ text: 'good app', rating: 5 });
      const without = classifyFeedback({ text: 'good app' });
      expect(withRating.classification).toBe('praise');
      expect(withRating.confidence).toBeGreaterThan(without.confidence);
    });

    it('tolerates out-of-range and non-finite ratings', () => {
      expect(classOf('good app', null, 42)).toBe('praise');
      expect(() => classifyFeedback({ text: 'good app', rating: Number.NaN })).not.toThrow();
    });
  });

  describe('fallback and confidence', () => {
    it('calls text without an intent other', () => {
      expect(classOf('Our team is five people, mostly designers.')).toBe('other');
      expect(classOf('just testing the widget')).toBe('other');
    });

    it('is less confident about a vague text than about a clear one', () => {
      const vague = classifyFeedback({ text: 'regarding the new menu' });
      const clear = classifyFeedback({ text: 'I was charged twice this month, please refund me' });
      expect(clear.classification).toBe('billing');
      expect(clear.confidence).toBeGreaterThan(0.9);
      expect(vague.confidence).toBeLessThan(0.7);
    });

    it('reads a short laugh as a reaction, not as spam', () => {
      expect(classOf('hahaha')).not.toBe('spam');
      expect(classOf('kkkkk')).not.toBe('spam');
    });

    it('keeps confidence within 0..1 with two decimals', () => {
      const texts = ['', 'x', 'refund pls', 'zzzzzzzzzzzz', 'love it', 'Sorting puts March before January.'];
      for (const text of texts) {
        const { classification, confidence } = classifyFeedback({ text });
        expect(FEEDBACK_CLASSIFICATIONS).toContain(classification);
        expect(confidence).toBeGreaterThanOrEqual(0);
        expect(confidence).toBeLessThanOrEqual(1);
        expect(Math.round(confidence * 100) / 100).toBe(confidence);
      }
    });

    it('is deterministic regardless of call order', () => {
      const inputs = [
        { text: 'great, another crash after the update', rating: 1 },
        { text: 'Please add an option to export as CSV', categoryHint: 'bug' as const },
        { text: 'asdfgh qwerty' },
      ];
      const first = inputs.map((input) => classifyFeedback(input));
      const second = [...inputs]
        .reverse()
        .map((input) => classifyFeedback(input))
        .reverse();
      expect(second).toEqual(first);
    });
  });
});

describe('summarize', () => {
  it('returns the first meaningful sentence, skipping greetings', () => {
    expect(summarize('Hi team,\nThe export crashes. It started yesterday.')).toBe('The export crashes.');
  });

  it('collapses whitespace and never contains newlines', () => {
    const summary = summarize('  The   export\tbutton    crashes  ');
    expect(summary).toBe('The export button crashes');
    expect(summary).not.toMatch(/\n/);
  });

  it('trims long sentences at a word boundary with an ellipsis', () => {
    const summary = summarize(`${'word '.repeat(60)}end.`);
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_LENGTH);
    expect(summary.endsWith('…')).toBe(true);
    expect(summary).toMatch(/^(word )*word…$/);
  });

  it('hard-cuts a single giant token', () => {
    const summary = summarize('x'.repeat(500));
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_LENGTH);
    expect(summary.endsWith('…')).toBe(true);
  });

  it('never returns an empty summary', () => {
    for (const text of ['', '   ', '\n\n', '!!!']) {
      expect(summarize(text).length).toBeGreaterThan(0);
    }
  });

  it('is part of every classification result and stays short', () => {
    const long = 'I really love this product but the mobile app crashes every time I attach a screenshot. '.repeat(20);
    const { summary } = classifyFeedback({ text: long });
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_LENGTH);
    expect(summary).not.toMatch(/[\r\n]/);
  });
});
