<?php

declare(strict_types=1);

namespace Payments;

/**
 * An object the service returned. Read fields as properties (`$payment->amount`) or array
 * offsets (`$payment['amount']`); nested objects are objects of their own class.
 *
 * @implements \ArrayAccess<string, mixed>
 * @implements \IteratorAggregate<string, mixed>
 */
class PaymentsObject implements \ArrayAccess, \IteratorAggregate, \JsonSerializable
{
    /** @var array<string, class-string<PaymentsObject>> Fields holding an object of a known class. */
    protected const NESTED = [];

    /** @var array<string, class-string<PaymentsObject>> Fields holding a list of objects of a known class. */
    protected const NESTED_LISTS = [];

    /** @var array<string, mixed> */
    protected array $values = [];

    /** @param array<string, mixed> $values The decoded JSON object. */
    final public function __construct(array $values = [])
    {
        foreach ($values as $name => $value) {
            $this->values[$name] = $this->convert((string) $name, $value);
        }
    }

    /** @param array<string, mixed> $values */
    public static function constructFrom(array $values): static
    {
        return new static($values);
    }

    public function __get(string $name): mixed
    {
        return $this->values[$name] ?? null;
    }

    public function __isset(string $name): bool
    {
        return isset($this->values[$name]);
    }

    public function __set(string $name, mixed $value): void
    {
        throw new \LogicException('Objects returned by the service are read-only; send an update instead.');
    }

    public function offsetExists(mixed $offset): bool
    {
        return array_key_exists($offset, $this->values);
    }

    public function offsetGet(mixed $offset): mixed
    {
        return $this->values[$offset] ?? null;
    }

    public function offsetSet(mixed $offset, mixed $value): void
    {
        $this->__set((string) $offset, $value);
    }

    public function offsetUnset(mixed $offset): void
    {
        $this->__set((string) $offset, null);
    }

    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->values);
    }

    /** @return array<string, mixed> The object as decoded JSON, nested objects included. */
    public function toArray(): array
    {
        return array_map(
            static fn (mixed $v): mixed => $v instanceof self
                ? $v->toArray()
                : (is_array($v) ? array_map(static fn (mixed $i): mixed => $i instanceof self ? $i->toArray() : $i, $v) : $v),
            $this->values,
        );
    }

    public function jsonSerialize(): mixed
    {
        return $this->values === [] ? new \stdClass() : $this->toArray();
    }

    private function convert(string $name, mixed $value): mixed
    {
        if (!is_array($value)) {
            return $value;
        }
        if (isset(static::NESTED[$name]) && !array_is_list($value)) {
            return static::NESTED[$name]::constructFrom($value);
        }
        if (isset(static::NESTED_LISTS[$name]) && array_is_list($value)) {
            $class = static::NESTED_LISTS[$name];
            return array_map(static fn (mixed $item): mixed => is_array($item) ? $class::constructFrom($item) : $item, $value);
        }
        return $value;
    }
}
