import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
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
  // Before routing, on every GET (and HEAD): the Host decides, not the path alone.
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(CustomDomainHostMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.GET });
  }
}
