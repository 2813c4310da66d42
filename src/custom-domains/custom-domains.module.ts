import { Inject, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CustomDomainHostMiddleware } from './custom-domain-host.middleware';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import { CustomDomainsController } from './custom-domains.controller';
import { CustomDomainsService } from './custom-domains.service';
import { DnsResolver, SystemDnsResolver } from './dns-resolver';

@Module({
  controllers: [CustomDomainsController],
  providers: [CustomDomainsService, CustomDomainHosts, { provide: DnsResolver, useClass: SystemDnsResolver }],
  exports: [CustomDomainsService],
})
export class CustomDomainsModule implements NestModule {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  // Before routing, on every GET (and HEAD): the Host decides, not the path alone. Without
  // CUSTOM_DOMAIN_CNAME_TARGET no custom domain can be served, and no request pays for the check.
  configure(consumer: MiddlewareConsumer): void {
    if (this.config.customDomains === null) return;
    consumer.apply(CustomDomainHostMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.GET });
  }
}
