import { ApiFailure, type ApiClient } from '../shared/api';
import { h } from '../shared/dom';

/** What the subscribe form says after an answer, by error code; the confirmation email on success. */
const OUTCOMES: Record<string, string> = {
  sent: 'Almost done: check your inbox and confirm your subscription.',
  ALREADY_SUBSCRIBED: 'This address is already subscribed.',
  VALIDATION_ERROR: 'Please enter a valid email address.',
  RATE_LIMITED: 'Too many attempts; please try again in a minute.',
};

/**
 * The email subscription form (spec: Changelog subscriber): `POST /v1/changelog/subscribers` with
 * the publishable key, so the person gets a confirmation email and is subscribed once they confirm.
 * `done` hears `confirmation_sent` or `already_subscribed` (for the page's event).
 */
export function subscribeForm(api: ApiClient, done: (status: string) => void): HTMLElement {
  const input = h('input', { id: 'subscribe-email', type: 'email', name: 'email', required: true, autocomplete: 'email', maxlength: 254 });
  const submit = h('button', { type: 'submit' }, 'Subscribe');
  const note = h('p', { class: 'note', role: 'status' });
  const form = h(
    'form',
    { class: 'subscribe' },
    h('label', { for: 'subscribe-email' }, 'Get updates by email'),
    h('div', { class: 'row' }, input, submit),
    note,
  );
  // Busy, not disabled: disabling the focused button would drop the keyboard's focus.
  let busy = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    submit.setAttribute('aria-disabled', 'true');
    note.textContent = '';
    void api
      .send('POST', '/v1/changelog/subscribers', { email: input.value.trim() })
      .then(() => 'sent')
      .catch((error: unknown) => (error instanceof ApiFailure ? error.code : 'failed'))
      .then((outcome) => {
        note.textContent = OUTCOMES[outcome] ?? 'Subscribing failed; please try again later.';
        if (outcome === 'sent') {
          input.value = '';
          done('confirmation_sent');
        } else if (outcome === 'ALREADY_SUBSCRIBED') done('already_subscribed');
        busy = false;
        submit.removeAttribute('aria-disabled');
      });
  });
  return form;
}
