import assert from 'node:assert/strict';
import { errorOf, type Actor, type Harness } from '../harness.js';

/**
 * The contract's isolation rule, reusable by every resource: what one partition owns is "not found"
 * (404, never 403) for the same account's other mode and for other accounts, in get and in list.
 */
export async function assertPartitionIsolation(
  h: Harness,
  r: { owner: Actor; id: string; getUrl: string; listUrl: string; others?: Actor[] },
): Promise<void> {
  const own = await h.request({ url: r.getUrl, as: r.owner });
  assert.equal(own.status, 200, `owner can read ${r.getUrl}`);
  const ownList = await h.request({ url: r.listUrl, as: r.owner });
  assert.ok(ownList.json<{ data: { id: string }[] }>().data.some((x) => x.id === r.id), 'owner sees it in the list');

  const others = r.others ?? [h.actors.aLive, h.actors.bTest].filter((a) => a.key !== r.owner.key);
  for (const other of others) {
    const res = await h.request({ url: r.getUrl, as: other });
    assert.equal(res.status, 404, `${other.partition.accountId}/${other.partition.mode} must not see ${r.id}`);
    assert.equal(errorOf(res).code, 'resource_not_found');
    assert.equal(errorOf(res).type, 'not_found_error');
    const list = await h.request({ url: r.listUrl, as: other });
    assert.equal(list.status, 200);
    assert.ok(!list.json<{ data: { id: string }[] }>().data.some((x) => x.id === r.id), 'absent from the other partition list');
  }
}
