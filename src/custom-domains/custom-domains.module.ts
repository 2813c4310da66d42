import { Module } from '@nestjs/common';
import { ClaimExpiry } from './claim-expiry.service';
import { CustomDomainGate } from './custom-domain-gate.service';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import { CustomDomainsController } from './custom-domains.controller';
import { CustomDomainsService } from './custom-domains.service';
import { DnsResolver, SystemDnsResolver } from './dns-resolver';
import { DomainRecheck } from './domain-recheck.service';
import { ProjectsModule } from '../projects/projects.module';

/** Custom domains: the claims (dashboard routes) and the gate that serves verified ones (guardCustomDomains). */
@Module({
  imports: [ProjectsModule],
  controllers: [CustomDomainsController],
  providers: [
    CustomDomainsService,
    CustomDomainHosts,
    CustomDomainGate,
    ClaimExpiry,
    DomainRecheck,
    { provide: DnsResolver, useClass: SystemDnsResolver },
  ],
  exports: [CustomDomainsService],
})
export class CustomDomainsModule {}
