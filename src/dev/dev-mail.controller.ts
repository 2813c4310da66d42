import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { Auth } from '../common/http/route-policy';
import type { RawReply } from '../common/http/reply';
import { DevelopmentAid } from './development-aid.guard';
import { devMailPage } from './dev-mail-page';
import { DevMailDto, DevMailService } from './dev-mail.service';

/**
 * GET /dev/mail, a development aid and not part of the API, so it stays out of the OpenAPI
 * document (which is the same whatever the settings). It exists only with DEV_MAIL on, and
 * answers only requests made on this machine (DevelopmentAid): the page shows every project's
 * confirmation links.
 */
@ApiExcludeController()
@Controller('dev')
@DevelopmentAid()
export class DevMailController {
  constructor(private readonly mail: DevMailService) {}

  @Get('mail')
  @Auth('none')
  async listMail(@Req() req: Request): Promise<DevMailDto[] | RawReply> {
    const messages = await this.mail.listMail();
    return req.accepts(['json', 'html']) === 'html' ? devMailPage(messages) : messages;
  }
}
