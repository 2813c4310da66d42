import { DeliveriesService } from '../../webhooks/delivery/deliveries.service';
import { ListDeliveriesQueryDto } from '../../webhooks/delivery/dto/delivery-inputs.dto';
import { WebhookDeliveryDto, WebhookTestResultDto } from '../../webhooks/delivery/dto/delivery.dto';
import { CreateEndpointDto } from '../../webhooks/endpoints/dto/create-endpoint.dto';
import { DeletedEndpointDto } from '../../webhooks/endpoints/dto/deleted-endpoint.dto';
import { CreatedEndpointDto, EndpointDto, EventTypeDto } from '../../webhooks/endpoints/dto/endpoint.dto';
import { UpdateEndpointDto } from '../../webhooks/endpoints/dto/update-endpoint.dto';
import { EndpointsService } from '../../webhooks/endpoints/endpoints.service';
import { McpIdempotency } from '../mcp-idempotency.service';
import { READ, type ToolDefinition, listOutput } from '../tool-kit';
import { dtoJsonSchema } from '../tool-schemas';
import type { ServiceResolver } from './service-resolver';

const ENDPOINT_ID = { prefix: 'we', description: 'The webhook endpoint id (we_…).' } as const;
const PLAN = 'Webhooks need the Indie plan (2 endpoints) or Builder (5).';

/** The webhooks group (spec: Webhooks names these six tools). */
export function webhookTools(services: ServiceResolver): ToolDefinition[] {
  const endpoints = services.get(EndpointsService);
  const deliveries = services.get(DeliveriesService);
  const idempotency = services.get(McpIdempotency);
  const endpoint = dtoJsonSchema(EndpointDto, { closed: false });

  return [
    {
      name: 'list_webhooks',
      group: 'webhooks',
      title: 'List webhook endpoints',
      description: `The project's webhook endpoints (URL masked, secret never shown), the plan's endpoint limit and every event type one can subscribe to. Returns {items, next_cursor: null, limit, events}. ${PLAN}`,
      annotations: READ,
      input: {},
      rest: { method: 'get', path: '/v1/webhooks' },
      output: listOutput(endpoint, {
        limit: { type: 'integer' },
        events: { type: 'array', items: dtoJsonSchema(EventTypeDto, { closed: false }) },
      }),
      run: async (caller) => {
        const list = await endpoints.listEndpoints(caller.project);
        return { items: list.endpoints, next_cursor: null, limit: list.limit, events: list.events };
      },
    },
    {
      name: 'create_webhook',
      group: 'webhooks',
      title: 'Create a webhook endpoint',
      description: `Adds an endpoint that receives the chosen events (https only, public host). Returns the endpoint with its signing_secret, shown this once: tell the user to store it. ${PLAN} Pass idempotency_key so a retry does not add a second endpoint.`,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      input: { dto: CreateEndpointDto, from: 'body', idempotent: true, secretInAnswer: true },
      rest: { method: 'post', path: '/v1/webhooks' },
      output: dtoJsonSchema(CreatedEndpointDto, { closed: false }),
      run: (caller, args) =>
        idempotency.run(caller, 'create_webhook', args, () =>
          endpoints.createEndpoint(caller.project, args.input as unknown as CreateEndpointDto),
        ),
    },
    {
      name: 'update_webhook',
      group: 'webhooks',
      title: 'Update a webhook endpoint',
      description: `Changes an endpoint's url, events or format, or switches it on (status "enabled", which also clears its failure count) or off. The REST PATCH fields, flat beside id. Returns the endpoint. ${PLAN}`,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      input: { id: ENDPOINT_ID, dto: UpdateEndpointDto, from: 'body' },
      rest: { method: 'patch', path: '/v1/webhooks/{id}' },
      output: endpoint,
      run: (caller, { id, input }) => endpoints.updateEndpoint(caller.project, id, input as UpdateEndpointDto),
    },
    {
      name: 'test_webhook',
      group: 'webhooks',
      title: 'Send a test event to a webhook endpoint',
      description: `Posts a signed webhook.test event to the endpoint now and answers what the receiver answered: delivered, response_status, duration_ms, a response_excerpt and the error if any. Nothing is stored or retried. ${PLAN}`,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      input: { id: ENDPOINT_ID },
      rest: { method: 'post', path: '/v1/webhooks/{id}/test' },
      output: dtoJsonSchema(WebhookTestResultDto, { closed: false }),
      run: (caller, { id }) => deliveries.test(caller.project, id),
    },
    {
      name: 'delete_webhook',
      group: 'webhooks',
      title: 'Delete a webhook endpoint',
      description: `Deletes an endpoint for good, with its delivery log; deliveries still pending are dropped. Without confirm: true it changes nothing and answers a preview: the endpoint and how many deliveries are pending. ${PLAN}`,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      input: { id: ENDPOINT_ID },
      rest: { method: 'delete', path: '/v1/webhooks/{id}' },
      output: dtoJsonSchema(DeletedEndpointDto, { closed: false }),
      preview: async (caller, { id }) => ({
        action: 'delete',
        endpoint: await endpoints.getEndpoint(caller.project, id),
        pending_deliveries: await deliveries.pendingCount(caller.project, id),
      }),
      run: (caller, { id }) => endpoints.deleteEndpoint(caller.project, id),
    },
    {
      name: 'list_webhook_deliveries',
      group: 'webhooks',
      title: 'List webhook deliveries',
      description: `Deliveries to one endpoint in the last 30 days, newest first: the event sent, what the endpoint answered, every attempt (attempt_log: its time, status or error, duration and answer excerpt) and when the next try is. Filter by status. Returns {items, next_cursor}; pass next_cursor as cursor for more. ${PLAN}`,
      annotations: READ,
      input: { id: ENDPOINT_ID, dto: ListDeliveriesQueryDto, from: 'query' },
      rest: { method: 'get', path: '/v1/webhooks/{id}/deliveries' },
      output: listOutput(dtoJsonSchema(WebhookDeliveryDto, { closed: false })),
      run: (caller, { id, input }) => deliveries.list(caller.project, id, input as ListDeliveriesQueryDto),
    },
  ];
}
