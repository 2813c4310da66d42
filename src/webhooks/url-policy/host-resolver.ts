import { Injectable } from '@nestjs/common';
import { promises as dns } from 'node:dns';

/**
 * The DNS answer for a webhook hostname at create and update time: every A and AAAA address, as
 * the system resolver gives them. A provider of its own so e2e tests can stub DNS (a public name,
 * one resolving to 10.0.0.1, …) without touching the network.
 */
@Injectable()
export class WebhookHostResolver {
  /** Every address of `hostname`; an empty list when it does not resolve. */
  async resolve(hostname: string): Promise<string[]> {
    try {
      const answers = await dns.lookup(hostname, { all: true, verbatim: true });
      return answers.map((answer) => answer.address);
    } catch {
      return [];
    }
  }
}
