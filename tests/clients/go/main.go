// Scenarios of franz-go (github.com/twmb/franz-go, Go's most used Kafka client) against a
// real fjord node: admin, idempotent produce, a classic and a KIP-848 consumer group that
// commit and resume, and transactions with read_committed. Run by tests/clients/run.py,
// which starts the node; usage: go run . BOOTSTRAP. Prints "go: N passed, M failed".
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

var bootstrap string

// check is one named scenario.
type check struct {
	name string
	run  func(ctx context.Context) error
}

func client(opts ...kgo.Opt) (*kgo.Client, error) {
	return kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap)}, opts...)...)
}

// consumeValues polls c until it has `want` records or the deadline passes; the values read.
func consumeValues(ctx context.Context, c *kgo.Client, want int) ([]int, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var got []int
	for len(got) < want {
		fs := c.PollFetches(ctx)
		if ctx.Err() != nil {
			return got, fmt.Errorf("read %d of %d records before the deadline", len(got), want)
		}
		for _, e := range fs.Errors() {
			if !errors.Is(e.Err, context.DeadlineExceeded) {
				return got, fmt.Errorf("fetch %s[%d]: %w", e.Topic, e.Partition, e.Err)
			}
		}
		fs.EachRecord(func(r *kgo.Record) {
			n, _ := strconv.Atoi(string(r.Value))
			got = append(got, n)
		})
	}
	return got, nil
}

// produce writes values from..to-1, value i to partition i%3, and waits for every answer.
func produce(ctx context.Context, c *kgo.Client, topic string, from, to int) (kgo.ProduceResults, error) {
	var recs []*kgo.Record
	for i := from; i < to; i++ {
		recs = append(recs, &kgo.Record{Topic: topic, Partition: int32(i % 3), Value: []byte(strconv.Itoa(i))})
	}
	res := c.ProduceSync(ctx, recs...)
	return res, res.FirstErr()
}

func expectRange(got []int, from, to int) error {
	sort.Ints(got)
	if len(got) != to-from {
		return fmt.Errorf("read %d records, want %d", len(got), to-from)
	}
	for i, v := range got {
		if v != from+i {
			return fmt.Errorf("record %d is %d, want %d (each record once)", i, v, from+i)
		}
	}
	return nil
}

func main() {
	bootstrap = os.Args[1]
	ctx := context.Background()
	checks := []check{
		{"admin: create, list and describe topics", func(ctx context.Context) error {
			c, err := client()
			if err != nil {
				return err
			}
			defer c.Close()
			adm := kadm.NewClient(c)
			for _, t := range []string{"go-data", "go-txn"} {
				r, err := adm.CreateTopic(ctx, 3, 1, map[string]*string{"retention.ms": kadm.StringPtr("3600000")}, t)
				if err != nil || r.Err != nil {
					return fmt.Errorf("create %s: %v %v", t, err, r.Err)
				}
			}
			topics, err := adm.ListTopics(ctx, "go-data")
			if err != nil {
				return err
			}
			d := topics["go-data"]
			if len(d.Partitions) != 3 || d.Err != nil {
				return fmt.Errorf("go-data described as %+v", d)
			}
			cfgs, err := adm.DescribeTopicConfigs(ctx, "go-data")
			if err != nil {
				return err
			}
			rc, err := cfgs.On("go-data", nil)
			if err != nil {
				return err
			}
			for _, kv := range rc.Configs {
				if kv.Key == "retention.ms" && kv.MaybeValue() == "3600000" {
					return nil
				}
			}
			return fmt.Errorf("retention.ms not described as set")
		}},
		{"idempotent produce: offsets dense per partition", func(ctx context.Context) error {
			c, err := client(kgo.RecordPartitioner(kgo.ManualPartitioner()))
			if err != nil {
				return err
			}
			defer c.Close()
			res, err := produce(ctx, c, "go-data", 0, 3000)
			if err != nil {
				return err
			}
			next := map[int32]int64{}
			for _, r := range res {
				if r.Record.Offset != next[r.Record.Partition] {
					return fmt.Errorf("partition %d: offset %d, want %d", r.Record.Partition, r.Record.Offset, next[r.Record.Partition])
				}
				next[r.Record.Partition]++
			}
			adm := kadm.NewClient(c)
			ends, err := adm.ListEndOffsets(ctx, "go-data")
			if err != nil {
				return err
			}
			for p := int32(0); p < 3; p++ {
				o, _ := ends.Lookup("go-data", p)
				if o.Offset != 1000 {
					return fmt.Errorf("partition %d ends at %d, want 1000", p, o.Offset)
				}
			}
			return nil
		}},
		{"classic group: commit, then resume after the last commit", func(ctx context.Context) error {
			group := func() (*kgo.Client, error) {
				return client(kgo.ConsumerGroup("go-classic"), kgo.ConsumeTopics("go-data"),
					kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit())
			}
			c, err := group()
			if err != nil {
				return err
			}
			got, err := consumeValues(ctx, c, 3000)
			if err == nil {
				err = expectRange(got, 0, 3000)
			}
			if err == nil {
				err = c.CommitUncommittedOffsets(ctx)
			}
			c.Close()
			if err != nil {
				return err
			}
			p, err := client(kgo.RecordPartitioner(kgo.ManualPartitioner()))
			if err != nil {
				return err
			}
			_, err = produce(ctx, p, "go-data", 3000, 3030)
			p.Close()
			if err != nil {
				return err
			}
			c, err = group()
			if err != nil {
				return err
			}
			defer c.Close()
			got, err = consumeValues(ctx, c, 30)
			if err != nil {
				return err
			}
			return expectRange(got, 3000, 3030)
		}},
		{"KIP-848 group: two members, every record read, the group a consumer group", func(ctx context.Context) error {
			var mu sync.Mutex
			seen := map[int]bool{}
			members := map[int]int{}
			ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
			defer cancel()
			var wg sync.WaitGroup
			errs := make(chan error, 2)
			for m := 0; m < 2; m++ {
				c, err := client(kgo.ConsumerGroup("go-848"), kgo.ConsumeTopics("go-data"),
					kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.ServerSideBalancer(),
					kgo.Balancers(kgo.CooperativeStickyBalancer()))
				if err != nil {
					return err
				}
				wg.Add(1)
				go func(m int, c *kgo.Client) {
					defer wg.Done()
					defer c.Close()
					for {
						mu.Lock()
						done := len(seen) == 3030
						mu.Unlock()
						if done {
							errs <- nil
							return
						}
						fs := c.PollFetches(ctx)
						if ctx.Err() != nil {
							errs <- fmt.Errorf("member %d: deadline", m)
							return
						}
						fs.EachRecord(func(r *kgo.Record) {
							n, _ := strconv.Atoi(string(r.Value))
							mu.Lock()
							seen[n] = true
							members[m]++
							mu.Unlock()
						})
					}
				}(m, c)
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				if e != nil {
					return fmt.Errorf("%w (read %d of 3030)", e, len(seen))
				}
			}
			c, err := client()
			if err != nil {
				return err
			}
			defer c.Close()
			groups, err := kadm.NewClient(c).ListGroups(ctx)
			if err != nil {
				return err
			}
			g, ok := groups["go-848"]
			if !ok || g.GroupType != "consumer" {
				return fmt.Errorf("go-848 listed as %+v, want a consumer (KIP-848) group", g)
			}
			return nil
		}},
		{"transactions: committed seen by read_committed, aborted not", func(ctx context.Context) error {
			p, err := client(kgo.TransactionalID("go-txn-producer"), kgo.RecordPartitioner(kgo.ManualPartitioner()))
			if err != nil {
				return err
			}
			defer p.Close()
			// Committed 0-9, aborted 10-19, committed 20-29: a reader that saw the aborted
			// ones would have 10-19 among its first 20.
			for i, commit := range []kgo.TransactionEndTry{kgo.TryCommit, kgo.TryAbort, kgo.TryCommit} {
				if err := p.BeginTransaction(); err != nil {
					return err
				}
				if _, err := produce(ctx, p, "go-txn", i*10, i*10+10); err != nil {
					return err
				}
				if err := p.EndTransaction(ctx, commit); err != nil {
					return err
				}
			}
			read := func(level kgo.IsolationLevel, want int) ([]int, error) {
				c, err := client(kgo.ConsumeTopics("go-txn"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
					kgo.FetchIsolationLevel(level))
				if err != nil {
					return nil, err
				}
				defer c.Close()
				return consumeValues(ctx, c, want)
			}
			got, err := read(kgo.ReadCommitted(), 20)
			if err != nil {
				return err
			}
			var low, high []int
			for _, v := range got {
				if v < 10 {
					low = append(low, v)
				} else {
					high = append(high, v)
				}
			}
			if err := expectRange(low, 0, 10); err != nil {
				return err
			}
			if err := expectRange(high, 20, 30); err != nil {
				return fmt.Errorf("read_committed: %w", err)
			}
			got, err = read(kgo.ReadUncommitted(), 30)
			if err != nil {
				return err
			}
			return expectRange(got, 0, 30)
		}},
	}
	failed := 0
	for _, ch := range checks {
		if err := ch.run(ctx); err != nil {
			failed++
			fmt.Printf("FAILED %s: %v\n", ch.name, err)
		}
	}
	fmt.Printf("go: %d passed, %d failed\n", len(checks)-failed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
