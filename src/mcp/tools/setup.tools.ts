import { SetupCheckDto } from '../../projects/dto/setup-check.dto';
import { SetupCheckService } from '../../projects/setup-check.service';
import { READ, type ToolDefinition } from '../tool-kit';
import { dtoJsonSchema } from '../tool-schemas';
import type { ServiceResolver } from './service-resolver';

/** `setup_check`, offered whatever the scope: the first call an agent makes. */
export function setupTools(services: ServiceResolver): ToolDefinition[] {
  const setupChecks = services.get(SetupCheckService);
  return [
    {
      name: 'setup_check',
      group: 'setup',
      title: 'Check the setup',
      description:
        'Call this first. Confirms the key works and names the project (id, slug, name), its plan, which features the plan enables, its limits (changelog entries left, subscribers) and the public changelog URL. Use it to learn what the other tools may do before calling them. All plans.',
      annotations: READ,
      input: {},
      rest: { method: 'get', path: '/v1/setup-check' },
      output: dtoJsonSchema(SetupCheckDto, { closed: false }),
      run: (caller) => setupChecks.setupCheck(caller.project),
    },
  ];
}
