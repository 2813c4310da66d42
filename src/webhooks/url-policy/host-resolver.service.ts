import { Injectable } from '@nestjs/common';
import { promises as dns } from 'node:dns';
import { ApiError } from '../../common/errors/api-error';

// Answers that say the name has no address: the URL is wrong, and retrying will not help.
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'EBADNAME', 'EFORMERR']);
// Seconds a client should wait before trying again after the resolver could not answer.
const DNS_RETRY_AFTER_SECONDS = 5;

/** 503 SERVICE_UNAVAILABLE with Retry-After: the resolver failed for now (timeout, SERVFAIL, no resolver), nothing was saved. */
export function dnsUnavailable(hostname: string, code: string): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', `The hostname ${hostname} could not be resolved right now (${code}); nothing was saved.`, {
    param: 'url',
    remediation: `DNS did not answer for now: retry in ${DNS_RETRY_AFTER_SECONDS} seconds or so. If it keeps failing, check that the hostname's DNS servers answer.`,
    headers: { 'Retry-After': String(DNS_RETRY_AFTER_SECONDS) },
  });
}

/**
 * The DNS answer for a webhook hostname at create and update time: every A and AAAA address, as
 * the system resolver gives them. A provider of its own so e2e tests can stub DNS (a public name,
 * one resolving to 10.0.0.1, …) without touching the network. A name that does not exist is an
 * empty list (the URL is refused); a resolver that could not answer (EAI_AGAIN, SERVFAIL, a
 * timeout) is a retryable 503, not a verdict on the URL.
 */
@Injectable()
export class WebhookHostResolver {
  /** Every address of `hostname`; an empty list when it does not resolve. */
  async resolve(hostname: string): Promise<string[]> {
    try {
      const answers = await dns.lookup(hostname, { all: true, verbatim: true });
      return answers.map((answer) => answer.address);
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? 'EAI_FAIL');
      if (NO_SUCH_NAME.has(code)) return [];
      throw dnsUnavailable(hostname, code);
    }
  }
}
