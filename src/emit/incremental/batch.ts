/**
 * A render thread's share of the incremental record: each page's reads,
 * links and digest, with names and link groups listed once per batch so the
 * message stays small.
 */
import type { PageLinks, TargetGroup } from '../links/scan.js';
import type { PageRecords } from '../threads/protocol.js';

export class BatchRecord {
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly groups: string[][] = [];
  private readonly groupIds = new Map<TargetGroup, number>();
  private readonly pages: PageRecords['pages'] = [];

  add(index: number, reads: readonly string[], links: PageLinks, digest: string): void {
    const ids = reads.map((name) => {
      let id = this.nameIds.get(name);
      if (id === undefined) {
        id = this.names.push(name) - 1;
        this.nameIds.set(name, id);
      }
      return id;
    });
    let group = -1;
    if (links.group !== undefined) {
      const known = this.groupIds.get(links.group);
      group = known ?? this.groups.push([...links.group.targets]) - 1;
      if (known === undefined) this.groupIds.set(links.group, group);
    }
    this.pages.push({ index, reads: ids, internal: links.internal, group, unsafe: links.unsafe, digest });
  }

  done(): PageRecords {
    return { names: this.names, groups: this.groups, pages: this.pages };
  }
}
