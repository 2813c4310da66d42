import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { DashboardJwt, DashboardJwtStrategy } from './dashboard-jwt.strategy';
import { EndUserVerifier } from './end-user-verifier.service';
import { KeyGuessLimiter } from './key-guess-limiter.service';
import { KeyUsageRecorder } from './key-usage.service';
import { AuthStateStep } from './policy-steps/auth-state.step';
import { BrowserLimitStep } from './policy-steps/browser-limit.step';
import { CallerStep } from './policy-steps/caller.step';
import { IdempotencyStep } from './policy-steps/idempotency.step';
import { PlanGateStep } from './policy-steps/plan-gate.step';
import { UserHashStep } from './policy-steps/user-hash.step';
import { ProvisioningService } from './provisioning.service';
import { RoutePolicyGuard } from './route-policy.guard';
import { SetupCheckController } from './setup-check.controller';
import { ProjectsModule } from '../projects/projects.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MailModule } from '../infra/mail/mail.module';
import { RateLimitModule } from '../infra/rate-limit/rate-limit.module';

@Module({
  imports: [AccountsModule, ProjectsModule, IdempotencyModule, MailModule, RateLimitModule],
  controllers: [AuthController, SetupCheckController],
  providers: [
    ApiKeysService,
    DashboardJwtStrategy,
    DashboardJwt,
    EndUserVerifier,
    KeyGuessLimiter,
    KeyUsageRecorder,
    ProvisioningService,
    CallerStep,
    BrowserLimitStep,
    PlanGateStep,
    UserHashStep,
    AuthStateStep,
    IdempotencyStep,
    RoutePolicyGuard,
  ],
  exports: [ApiKeysService, KeyUsageRecorder, EndUserVerifier, ProvisioningService, RoutePolicyGuard],
})
export class AuthModule {}
