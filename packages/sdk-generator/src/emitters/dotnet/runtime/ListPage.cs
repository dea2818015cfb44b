#nullable enable
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Payments
{
    /// <summary>
    /// A page of a list endpoint: <see cref="Data"/>, <see cref="HasMore"/>, <see cref="Url"/>.
    /// <see cref="AutoPagingToListAsync"/> and <see cref="AutoPagingEachAsync"/> walk every item across
    /// pages (<c>starting_after</c> the last id, or <c>ending_before</c> the first id when paging backwards).
    /// </summary>
    public sealed class ListPage<T> where T : class
    {
        private readonly Func<IDictionary<string, object?>, CancellationToken, Task<ListPage<T>>> fetchPage;
        private readonly IDictionary<string, object?> query;
        private readonly Func<T, string?> idOf;

        public ListPage(IReadOnlyList<T> data, bool hasMore, string? url, IDictionary<string, object?> query,
            Func<IDictionary<string, object?>, CancellationToken, Task<ListPage<T>>> fetchPage, Func<T, string?> idOf)
        {
            Data = data;
            HasMore = hasMore;
            Url = url;
            this.query = query;
            this.fetchPage = fetchPage;
            this.idOf = idOf;
        }

        public IReadOnlyList<T> Data { get; }
        public bool HasMore { get; }
        public string? Url { get; }

        /// <summary>The next page in the direction of this one, or null after the last.</summary>
        public Task<ListPage<T>?> NextPageAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (!HasMore || Data.Count == 0) return Task.FromResult<ListPage<T>?>(null);
            var backwards = query.ContainsKey("ending_before") && query["ending_before"] != null;
            var next = new Dictionary<string, object?>(query);
            next.Remove("starting_after");
            next.Remove("ending_before");
            if (backwards) next["ending_before"] = idOf(Data[0]);
            else next["starting_after"] = idOf(Data[Data.Count - 1]);
            return WrapAsync(fetchPage(next, cancellationToken));
        }

        private static async Task<ListPage<T>?> WrapAsync(Task<ListPage<T>> page) => await page.ConfigureAwait(false);

        /// <summary>Calls <paramref name="onItem"/> for every item across pages; returning false stops.</summary>
        public async Task AutoPagingEachAsync(Func<T, bool> onItem, CancellationToken cancellationToken = default(CancellationToken))
        {
            var backwards = query.ContainsKey("ending_before") && query["ending_before"] != null;
            ListPage<T>? page = this;
            while (page != null)
            {
                var items = new List<T>(page.Data);
                if (backwards) items.Reverse();
                foreach (var item in items)
                    if (!onItem(item)) return;
                page = await page.NextPageAsync(cancellationToken).ConfigureAwait(false);
            }
        }

        /// <summary>Collects up to <paramref name="limit"/> items (at most 10,000) across pages.</summary>
        public async Task<List<T>> AutoPagingToListAsync(int limit, CancellationToken cancellationToken = default(CancellationToken))
        {
            if (limit < 1 || limit > 10000) throw new ArgumentOutOfRangeException(nameof(limit), "AutoPagingToListAsync needs a limit from 1 to 10000.");
            var result = new List<T>();
            await AutoPagingEachAsync(item =>
            {
                result.Add(item);
                return result.Count < limit;
            }, cancellationToken).ConfigureAwait(false);
            return result;
        }
    }
}
