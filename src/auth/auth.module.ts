import { Global, Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { DashboardJwt, DashboardJwtStrategy } from './dashboard-jwt';
import { EndUserVerifier } from './end-user-verifier';
import { KeyGuessLimiter } from './key-guess-limiter';
import { KeyUsageRecorder } from './key-usage';
import { ProvisioningService } from './provisioning.service';
import { RoutePolicyGuard } from './route-policy.guard';

@Global()
@Module({
  controllers: [AuthController],
  providers: [
    ApiKeysService,
    AccountsService,
    DashboardJwtStrategy,
    DashboardJwt,
    EndUserVerifier,
    KeyGuessLimiter,
    KeyUsageRecorder,
    ProvisioningService,
    RoutePolicyGuard,
  ],
  exports: [ApiKeysService, KeyUsageRecorder, AccountsService, EndUserVerifier, ProvisioningService, RoutePolicyGuard],
})
export class AuthModule {}
