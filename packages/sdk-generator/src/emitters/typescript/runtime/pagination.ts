/** A page of a list endpoint (contract section 8, Lists). */
export interface ListObject<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** The cursor parameters every list takes; the rest of its params are passed through unchanged. */
export interface PageParams {
  starting_after?: string;
  ending_before?: string;
}

/** At most this many items in one `autoPagingToArray`, so a forgotten limit cannot exhaust memory. */
const MAX_ARRAY_ITEMS = 10_000;

/**
 * What a list method returns: await it for the first page, or iterate it with `for await` to
 * walk every item across pages (`starting_after` the last id; `ending_before` the first id when
 * the first call paged backwards).
 */
export class ListPromise<T extends { id: string }, P extends PageParams = PageParams>
  implements PromiseLike<ListObject<T>>, AsyncIterable<T>
{
  private first: Promise<ListObject<T>> | undefined;

  constructor(
    private readonly fetchPage: (params: P) => Promise<ListObject<T>>,
    private readonly params: P,
  ) {}

  private firstPage(): Promise<ListObject<T>> {
    this.first ??= this.fetchPage(this.params);
    return this.first;
  }

  // A ListPromise is awaitable by design: it has a then().
  then<R1 = ListObject<T>, R2 = never>(
    onFulfilled?: ((page: ListObject<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<ListObject<T> | R> {
    return this.firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<ListObject<T>> {
    return this.firstPage().finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const backwards = this.params.ending_before !== undefined;
    let page = await this.firstPage();
    for (;;) {
      yield* backwards ? [...page.data].reverse() : page.data;
      if (!page.has_more || page.data.length === 0) return;
      const { starting_after: _after, ending_before: _before, ...rest } = this.params;
      const cursor = backwards ? { ending_before: (page.data[0] as T).id } : { starting_after: (page.data[page.data.length - 1] as T).id };
      page = await this.fetchPage({ ...rest, ...cursor } as P);
    }
  }

  /** Calls `onItem` for every item across pages (awaiting it); returning `false` stops. */
  async autoPagingEach(onItem: (item: T) => unknown): Promise<void> {
    for await (const item of this) {
      if ((await onItem(item)) === false) return;
    }
  }

  /** Collects up to `limit` items (at most 10,000) across pages. */
  async autoPagingToArray(options: { limit: number }): Promise<T[]> {
    if (!Number.isInteger(options.limit) || options.limit < 1 || options.limit > MAX_ARRAY_ITEMS) {
      throw new RangeError(`autoPagingToArray needs a limit from 1 to ${MAX_ARRAY_ITEMS}.`);
    }
    const items: T[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length >= options.limit) break;
    }
    return items;
  }
}
