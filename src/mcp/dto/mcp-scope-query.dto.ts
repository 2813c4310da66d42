import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { TOOL_GROUPS } from '../tool-kit';

const GROUP = `(${TOOL_GROUPS.join('|')})`;
const GROUP_LIST = new RegExp(`^${GROUP}(,${GROUP})*$`);

/** The query string of `/mcp`: which tools the connection offers. */
export class McpScopeQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true` offers only the read-only tools.' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'read_only must be "true" or "false"' })
  read_only?: 'true' | 'false';

  @ApiPropertyOptional({ example: 'changelog,webhooks', description: `Comma-separated groups: ${TOOL_GROUPS.join(', ')}.` })
  @IsOptional()
  @Matches(GROUP_LIST, { message: `tools must be a comma-separated list of: ${TOOL_GROUPS.join(', ')}` })
  tools?: string;
}
