import { Global, Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { JwtVerifier } from './jwt-verifier';
import { ProvisioningService } from './provisioning.service';

@Global()
@Module({
  controllers: [AuthController],
  providers: [ApiKeysService, AccountsService, JwtVerifier, ProvisioningService, AuthGuard],
  exports: [ApiKeysService, AccountsService, ProvisioningService, AuthGuard],
})
export class AuthModule {}
