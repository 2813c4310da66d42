import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../common/errors/api-error';
import { Auth } from '../common/http/route-policy';
import type { RawReply } from '../common/http/reply';
import { devMailPage } from './dev-mail-page';
import { DevMailDto, DevMailService } from './dev-mail.service';

/** A loopback peer address (IPv4, IPv6, or IPv4 mapped into IPv6), classified as the webhook URL rules do. */
export function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

/**
 * GET /dev/mail, a development aid and not part of the API, so it stays out of the OpenAPI
 * document (which is the same whatever NODE_ENV is). Only callers on this machine get an answer:
 * the page shows every project's confirmation links, and a server started with `npm start` but
 * without NODE_ENV=production must not hand them to the internet.
 */
@ApiExcludeController()
@Controller('dev')
export class DevMailController {
  constructor(private readonly mail: DevMailService) {}

  @Get('mail')
  @Auth('none')
  async listMail(@Req() req: Request): Promise<DevMailDto[] | RawReply> {
    // The TCP peer, not X-Forwarded-For: a header cannot make a remote caller look local.
    if (!isLoopback(req.socket.remoteAddress)) {
      throw new ApiError('NOT_FOUND', 'No such endpoint.', { remediation: 'GET /dev/mail answers requests from this machine only.' });
    }
    const messages = await this.mail.listMail();
    return req.accepts(['json', 'html']) === 'html' ? devMailPage(messages) : messages;
  }
}
