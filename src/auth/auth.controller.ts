import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { type Caller } from '../common/http/request-context';
import { Auth, CurrentCaller } from './auth.decorator';
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
  provision(@CurrentCaller() caller: Caller, @Body() body: ProvisionDto): Promise<ProvisionResultDto> {
    return this.provisioning.provision(caller, body);
  }
}
