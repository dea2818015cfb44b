<?php

declare(strict_types=1);

namespace Payments;

/**
 * A page of a list endpoint: `data`, `has_more`, `url`. Iterate `autoPagingIterator()` to walk
 * every item across pages (`starting_after` the last id, or `ending_before` the first id when the
 * first call paged backwards).
 *
 * ```php
 * foreach ($client->payments->list(['limit' => 100])->autoPagingIterator() as $payment) {
 *     echo $payment->id, "\n";
 * }
 * ```
 *
 * @template T of PaymentsObject
 * @implements \IteratorAggregate<int, T>
 * @property-read list<T> $data
 * @property-read bool $has_more
 * @property-read string $url
 */
final class Collection extends PaymentsObject implements \Countable
{
    /** @var (\Closure(array<string, mixed>): Collection<T>)|null */
    private ?\Closure $fetchPage = null;

    /** @var array<string, mixed> */
    private array $params = [];

    /**
     * Fetches the first page for `$params`; later pages come from the same request with a cursor.
     *
     * @param \Closure(array<string, mixed>): mixed $request Sends the list request for some params.
     * @param class-string<T> $itemClass
     * @param array<string, mixed> $params
     * @return Collection<T>
     */
    public static function fetch(\Closure $request, string $itemClass, array $params): self
    {
        $fetchPage = static function (array $page) use (&$fetchPage, $request, $itemClass): self {
            return self::fromPage($request($page), $itemClass, $fetchPage, $page);
        };
        return $fetchPage($params);
    }

    /**
     * @param array<string, mixed> $page The decoded list object.
     * @param class-string<T> $itemClass
     * @param \Closure(array<string, mixed>): Collection<T> $fetchPage Fetches the page for other params.
     * @param array<string, mixed> $params The params this page was fetched with.
     * @return Collection<T>
     */
    public static function fromPage(array $page, string $itemClass, \Closure $fetchPage, array $params): self
    {
        $page['data'] = array_map(static fn (array $item): PaymentsObject => $itemClass::constructFrom($item), $page['data'] ?? []);
        $collection = new self($page);
        $collection->fetchPage = $fetchPage;
        $collection->params = $params;
        return $collection;
    }

    /** @return \ArrayIterator<int, T> The items of this page only. */
    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->values['data'] ?? []);
    }

    public function count(): int
    {
        return count($this->values['data'] ?? []);
    }

    /** @return \Generator<int, T> Every item, fetching the next page when this one runs out. */
    public function autoPagingIterator(): \Generator
    {
        $backwards = isset($this->params['ending_before']);
        $page = $this;
        while (true) {
            $items = $page->values['data'] ?? [];
            yield from $backwards ? array_reverse($items) : $items;
            if (!($page->values['has_more'] ?? false) || $items === [] || $this->fetchPage === null) {
                return;
            }
            $params = $this->params;
            unset($params['starting_after'], $params['ending_before']);
            if ($backwards) {
                $params['ending_before'] = $items[0]->id;
            } else {
                $params['starting_after'] = $items[count($items) - 1]->id;
            }
            $page = ($this->fetchPage)($params);
        }
    }

    /**
     * Collects up to `$limit` items (at most 10,000) across pages.
     *
     * @return list<T>
     */
    public function autoPagingToArray(int $limit): array
    {
        if ($limit < 1 || $limit > 10_000) {
            throw new \InvalidArgumentException('autoPagingToArray needs a limit from 1 to 10000.');
        }
        $items = [];
        foreach ($this->autoPagingIterator() as $item) {
            $items[] = $item;
            if (count($items) >= $limit) {
                break;
            }
        }
        return $items;
    }
}
