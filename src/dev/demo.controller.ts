import { Controller, Get, HttpCode, Inject, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { RawReply } from '../common/http/reply';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { demoPage } from './demo-page';
import { DemoService } from './demo.service';
import { DevelopmentAid } from './development-aid.guard';
import { SameOriginFormGuard } from './same-origin-form.guard';

/**
 * GET /demo and its button, a development aid like GET /dev/mail and under the same switch
 * (DEV_MAIL) and guard (this machine only), so not in the OpenAPI document. The page holds no
 * script of its own: the button is a form that posts here and comes back (303) to the page.
 */
@ApiExcludeController()
@Controller('demo')
@DevelopmentAid()
export class DemoController {
  constructor(
    private readonly demo: DemoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Auth('none')
  async showDemo(@Query('sent') sent?: string): Promise<RawReply> {
    return demoPage(await this.demo.describeDemo(), sent === '1', this.config);
  }

  @Post('notifications')
  @HttpCode(303)
  @Auth('none')
  @UseGuards(SameOriginFormGuard)
  async sendDemoNotification(): Promise<RawReply> {
    const sent = await this.demo.sendTestNotification();
    return new RawReply('', 'text/plain; charset=utf-8', 303, { Location: sent ? '/demo?sent=1' : '/demo' });
  }
}
