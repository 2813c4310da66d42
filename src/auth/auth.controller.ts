import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Auth } from '../common/http/route-policy';
import type { DashboardUser } from './caller';
import { CurrentDashboardUser } from './current.decorators';
import { ProvisionDto, ProvisionResultDto } from './dto/provision.dto';
import { ProvisioningService } from './provisioning.service';

@ApiTags('Dashboard')
@Controller('v1/auth')
export class AuthController {
  constructor(private readonly provisioning: ProvisioningService) {}

  @Post('provision')
  @HttpCode(200)
  @Auth('signed_in')
  @ApiOperation({
    summary: 'Create the account of the signed-in user with its first project (Free) and keys, shown once. Safe to call again.',
  })
  @ApiEnvelope(ProvisionResultDto)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  provision(@CurrentDashboardUser() user: DashboardUser, @Body() body: ProvisionDto): Promise<ProvisionResultDto> {
    return this.provisioning.provision(user, body);
  }
}
