package payments

import "context"

// List is one page of a list endpoint.
type List[T any] struct {
	Object  string `json:"object"`
	Data    []T    `json:"data"`
	HasMore bool   `json:"has_more"`
	URL     string `json:"url"`
}

// Iter walks every item of a list across pages, fetching the next page when the iteration
// reaches it (starting_after the last id, or ending_before the first when the call paged
// backwards):
//
//	it := client.Payments.ListAutoPaging(ctx, &payments.PaymentsListParams{Limit: payments.Int64(100)})
//	for it.Next() {
//		fmt.Println(it.Current().ID)
//	}
//	if err := it.Err(); err != nil { ... }
type Iter[T any] struct {
	ctx       context.Context
	fetch     func(ctx context.Context, query map[string]interface{}) (*List[T], error)
	id        func(T) string
	query     map[string]interface{}
	backwards bool
	page      *List[T]
	index     int
	current   T
	err       error
	done      bool
}

func newIter[T any](ctx context.Context, params interface{}, id func(T) string, fetch func(context.Context, map[string]interface{}) (*List[T], error)) *Iter[T] {
	query, err := toMap(params)
	it := &Iter[T]{ctx: ctx, fetch: fetch, id: id, query: query, err: err, done: err != nil}
	if query != nil {
		_, it.backwards = query["ending_before"]
	}
	return it
}

// Next advances to the next item; false at the end of the list or on an error (see Err).
func (it *Iter[T]) Next() bool {
	if it.done {
		return false
	}
	if it.page == nil {
		if !it.load() {
			return false
		}
	}
	for it.index >= len(it.page.Data) {
		if !it.page.HasMore || len(it.page.Data) == 0 {
			it.done = true
			return false
		}
		delete(it.query, "starting_after")
		delete(it.query, "ending_before")
		if it.backwards {
			it.query["ending_before"] = it.id(it.page.Data[0])
		} else {
			it.query["starting_after"] = it.id(it.page.Data[len(it.page.Data)-1])
		}
		if !it.load() {
			return false
		}
	}
	i := it.index
	if it.backwards {
		i = len(it.page.Data) - 1 - it.index
	}
	it.current = it.page.Data[i]
	it.index++
	return true
}

func (it *Iter[T]) load() bool {
	page, err := it.fetch(it.ctx, it.query)
	if err != nil {
		it.err, it.done = err, true
		return false
	}
	it.page, it.index = page, 0
	return true
}

// Current is the item Next moved to.
func (it *Iter[T]) Current() T { return it.current }

// Err is the error that stopped the iteration, if any.
func (it *Iter[T]) Err() error { return it.err }

// Page is the page the current item came from.
func (it *Iter[T]) Page() *List[T] { return it.page }
