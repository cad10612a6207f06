import assert from "node:assert/strict";
import { collect, paginate, type Page } from "./";
import {
  CursorStuckError,
  EndedBeforeTotalError,
  EndlessListError,
  ListTooLargeError,
  MAX_PAGES,
  PAGES_AHEAD,
  PartlyRepeatedPageError,
  RepeatedPageError,
  ShortPageError,
  TotalChangedError,
  type PageAnswer,
} from "./pagination";

function source(total: number, cap = Number.POSITIVE_INFINITY) {
  const calls: [number, number][] = [];
  const fetch = async (page: number, pageSize: number): Promise<Page<number>> => {
    calls.push([page, pageSize]);
    const size = Math.min(pageSize, cap);
    const start = (page - 1) * size;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i);
    return { items, page, pageSize: size, total };
  };
  return { fetch, calls };
}

describe("client pagination", () => {
  it("walks every page until total, with the fewest requests", async () => {
    const s = source(450);
    const items = await collect(paginate(s.fetch, 200));
    assert.deepEqual(
      items,
      Array.from({ length: 450 }, (_, i) => i),
    );
    assert.deepEqual(s.calls, [
      [1, 200],
      [2, 200],
      [3, 200],
    ]);
  });

  it("makes one request for an exact single page and for an empty list", async () => {
    const one = source(200);
    assert.equal((await collect(paginate(one.fetch, 200))).length, 200);
    assert.equal(one.calls.length, 1);
    const none = source(0);
    assert.deepEqual(await collect(paginate(none.fetch, 200)), []);
    assert.equal(none.calls.length, 1);
  });

  it("follows the service's own page size when it caps the one asked for", async () => {
    const s = source(120, 50);
    assert.equal((await collect(paginate(s.fetch, 200))).length, 120);
    assert.deepEqual(
      s.calls.map(([p]) => p),
      [1, 2, 3],
    );
  });

  it("refuses an empty page that comes before the total is reached: the list is not proven whole", async () => {
    let calls = 0;
    const fetch = async (page: number): Promise<Page<number>> => {
      calls++;
      return { items: page === 1 ? [1, 2] : [], page, pageSize: 2, total: 10 };
    };
    await assert.rejects(collect(paginate(fetch, 2)), (error: Error) => {
      assert.ok(error instanceof EndedBeforeTotalError);
      assert.match(error.message, /page 2 is empty after 2 items, but the total says 10/);
      return true;
    });
    assert.equal(calls, 2);
  });

  it("a service that caps its pages but echoes the size asked: reads every item by counting them, never ends at page 1", async () => {
    // 120 items, pages of 50 whatever is asked, `pageSize` echoing the 200 asked.
    const asked: [number, number][] = [];
    const fetch = async (page: number, pageSize: number): Promise<Page<number>> => {
      asked.push([page, pageSize]);
      const start = (page - 1) * Math.min(pageSize, 50);
      const items = Array.from({ length: Math.max(0, Math.min(50, pageSize, 120 - start)) }, (_, i) => start + i);
      return { items, page, pageSize, total: 120 };
    };
    assert.deepEqual(
      await collect(paginate(fetch, 200)),
      Array.from({ length: 120 }, (_, i) => i),
    );
    assert.deepEqual(asked, [
      [1, 200],
      [2, 50],
      [3, 50],
    ]);
  });

  it("by page numbers, refuses a later page shorter than the ones before while the total is not reached", async () => {
    const fetch = async (page: number): Promise<PageAnswer<number>> => {
      const items = page === 1 ? [0, 1, 2, 3] : [4, 5];
      return { items, total: 10 };
    };
    await assert.rejects(collect(paginate(fetch, 4)), (error: Error) => {
      assert.ok(error instanceof ShortPageError);
      assert.match(error.message, /page 2 has 2 items where the pages before had 4, after 6 of 10 items/);
      return true;
    });
  });

  it("by offset, a short page continues from the items seen (unambiguous) until the total", async () => {
    const offsets: number[] = [];
    const fetch = async (_page: number, size: number, cursor: { offset: number }): Promise<PageAnswer<number>> => {
      offsets.push(cursor.offset);
      const items = Array.from(
        { length: Math.max(0, Math.min(3, size, 10 - cursor.offset)) },
        (_, i) => cursor.offset + i,
      );
      return { items, total: 10 };
    };
    assert.equal((await collect(paginate(fetch, 5, { byOffset: true }))).length, 10);
    assert.deepEqual(offsets, [0, 3, 6, 9]);
  });

  it("refuses a page whose items were all read before (a cycle), and a next cursor that does not move", async () => {
    const cycle = async (page: number): Promise<PageAnswer<number>> => ({ items: page % 2 === 1 ? [1, 2] : [3, 4] });
    await assert.rejects(collect(paginate(cycle, 2)), RepeatedPageError);
    let n = 0;
    const stuck = async (): Promise<PageAnswer<number>> => ({ items: [n++], next: 0 });
    await assert.rejects(collect(paginate(stuck, 1)), CursorStuckError);
  });

  it("refuses a list past its byte budget: large pages that never end stop, counted in bytes, not pages", async () => {
    let calls = 0;
    const fetch = async (page: number): Promise<PageAnswer<number>> => {
      calls++;
      return { items: [page], bytes: 1_000_000 };
    };
    await assert.rejects(collect(paginate(fetch, 1, { maxBytes: 5_000_000 })), ListTooLargeError);
    assert.equal(calls, 6);
  });

  it("is lazy: stopping early fetches no further page", async () => {
    const s = source(1000);
    for await (const item of paginate(s.fetch, 100)) {
      if (item === 150) break;
    }
    assert.equal(s.calls.length, 2);
  });

  it("refuses a list whose total keeps growing, at the first change, never taking it as ended", async () => {
    let calls = 0;
    const fetch = async (page: number): Promise<Page<number>> => {
      calls++;
      return { items: [page], page, pageSize: 1, total: 3 + page * 10 };
    };
    await assert.rejects(collect(paginate(fetch, 1)), TotalChangedError);
    assert.equal(calls, 2);
  });

  it("refuses a list without a total that never ends, after a bounded number of pages", async () => {
    let calls = 0;
    const fetch = async (page: number): Promise<PageAnswer<number>> => {
      calls++;
      return { items: [page], pageSize: 1 };
    };
    await assert.rejects(collect(paginate(fetch, 1)), EndlessListError);
    assert.equal(calls, MAX_PAGES);
  });

  it("refuses pages that partly overlap rather than reach the total counting a duplicate", async () => {
    // Page 2 starts one item back (an item inserted before the cursor): 6 items read = the total, item 6 unread.
    const fetch = async (page: number): Promise<Page<{ connectorId: string }>> => {
      const ids = page === 1 ? [1, 2, 3] : [3, 4, 5];
      return { items: ids.map((n) => ({ connectorId: `c${n}` })), page, pageSize: 3, total: 6 };
    };
    await assert.rejects(collect(paginate(fetch, 3)), PartlyRepeatedPageError);
  });

  it("counts items by their connectorId, not their JSON: a repeated id with new fields is a repeat", async () => {
    const fetch = async (page: number): Promise<Page<{ connectorId: string; n: number }>> => {
      const ids = page === 1 ? [1, 2] : [2, 3];
      return { items: ids.map((n) => ({ connectorId: `c${n}`, n: n * page })), page, pageSize: 2, total: 4 };
    };
    await assert.rejects(collect(paginate(fetch, 2)), /page 2 repeats 1 of its 2 items already read/);
  });

  it("passes errors of a page through", async () => {
    const fetch = async (page: number): Promise<Page<number>> => {
      if (page === 2) throw new Error("page 2 failed");
      return { items: [1], page, pageSize: 1, total: 5 };
    };
    await assert.rejects(collect(paginate(fetch, 1)), /page 2 failed/);
  });

  describe("allAtOnce (a caller that reads every item)", () => {
    /** Pages that answer only when released, so the test sees which were asked for before any answered. */
    function held(total: number) {
      const asked: number[] = [];
      const release = new Map<number, () => void>();
      const fetch = (page: number, pageSize: number): Promise<Page<number>> => {
        asked.push(page);
        const start = (page - 1) * pageSize;
        const items = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => start + i);
        return new Promise((resolve) => release.set(page, () => resolve({ items, page, pageSize, total })));
      };
      return { fetch, asked, release };
    }
    const turn = () => new Promise((resolve) => setImmediate(resolve));

    it("asks for every other page once the first answers, and yields the items in page order", async () => {
      const s = held(450);
      const all = collect(paginate(s.fetch, 200, { allAtOnce: true }));
      await turn();
      assert.deepEqual(s.asked, [1]);
      s.release.get(1)!();
      await turn();
      assert.deepEqual(s.asked, [1, 2, 3], "pages 2 and 3 before page 2 answered");
      s.release.get(3)!(); // the last page answers first
      s.release.get(2)!();
      assert.deepEqual(
        await all,
        Array.from({ length: 450 }, (_, i) => i),
      );
      assert.deepEqual(s.asked, [1, 2, 3], "no page twice, none beyond total");
    });

    it("asks for at most PAGES_AHEAD pages beyond the one being read", async () => {
      const s = source(100 * (PAGES_AHEAD + 5));
      let asked = 0;
      for await (const item of paginate(s.fetch, 100, { allAtOnce: true })) {
        if (item % 100 === 0) asked = Math.max(asked, s.calls.length - (item / 100 + 1));
      }
      assert.equal(asked, PAGES_AHEAD);
      assert.equal(s.calls.length, PAGES_AHEAD + 5);
    });

    it("refuses a total that shrinks; a page asked for and never read does not reject unhandled", async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", onUnhandled);
      try {
        // The first page says 6, the second says 3 (removed meanwhile): page 3, asked ahead, is never read.
        const fetch = async (page: number): Promise<Page<number>> => {
          if (page === 3) throw new Error("page 3 failed");
          return { items: page === 1 ? [1, 2] : [3], page, pageSize: 2, total: page === 1 ? 6 : 3 };
        };
        await assert.rejects(collect(paginate(fetch, 2, { allAtOnce: true })), TotalChangedError);
        await turn();
        assert.deepEqual(unhandled, []);
      } finally {
        process.off("unhandledRejection", onUnhandled);
      }
    });

    it("passes the error of a page it reads through", async () => {
      const fetch = async (page: number): Promise<Page<number>> => {
        if (page === 2) throw new Error("page 2 failed");
        return { items: [page], page, pageSize: 1, total: 3 };
      };
      await assert.rejects(collect(paginate(fetch, 1, { allAtOnce: true })), /page 2 failed/);
    });
  });
});
