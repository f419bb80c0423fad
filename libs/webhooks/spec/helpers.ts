import { EndpointRow } from '../src/store/types';

/** An enabled endpoint of tenant t1 for every event type, never rotated or failing; `extra` changes any field. */
export const endpointRow = (id: string, extra: Partial<EndpointRow> = {}): EndpointRow => ({
  id,
  tenantId: 't1',
  url: 'http://127.0.0.1:1/hook',
  description: '',
  eventTypes: [],
  fightId: null,
  enabled: true,
  secret: 'whsec_AAAA',
  previousSecrets: [],
  disabledReason: null,
  failingSince: null,
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});
