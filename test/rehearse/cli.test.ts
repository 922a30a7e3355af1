// `npm run rehearse`'s summary of API calls: by endpoint, an item's or a secret's name folded away.
import { describe, expect, it } from 'vitest';
import { callCounts } from '../../rehearse/cli.js';

describe('the calls by endpoint', () => {
  it('folds item keys and secret names, most made first', () => {
    const steps = [
      {
        name: 'a',
        command: 'a',
        ms: 1,
        calls: ['PUT /resources/stores/config/CONFIG_ID/item/settings 200', 'GET /service/SERVICE_ID/details 200'],
      },
      {
        name: 'b',
        command: 'b',
        ms: 1,
        calls: [
          'PUT /resources/stores/config/CONFIG_ID/item/routing 200',
          'DELETE /resources/stores/secret/KEYS_ID/secrets/key1 204',
          'PUT /resources/stores/config/CONFIG_ID/item/room.main.live 200',
        ],
      },
    ];
    expect(callCounts(steps)).toEqual([
      '    3  PUT /resources/stores/config/CONFIG_ID/item/KEY 200',
      '    1  GET /service/SERVICE_ID/details 200',
      '    1  DELETE /resources/stores/secret/KEYS_ID/secrets/NAME 204',
    ]);
  });
});
