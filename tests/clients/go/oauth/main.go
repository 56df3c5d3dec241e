// OAUTHBEARER with franz-go: a token from the provider's token endpoint by the client
// credentials grant (golang.org/x/oauth2), asked for an audience, then a produce and a fetch
// of the record back. Run by tests/python/oauth_test.py against a listener that checks the
// audience:
//
//	go run ./oauth BOOTSTRAP TOKEN_URL CLIENT_ID SECRET AUDIENCE
//
// Exits 0 when the record came back, 1 when signing in or producing failed (the error on
// stderr).
package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"golang.org/x/oauth2/clientcredentials"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: oauth BOOTSTRAP TOKEN_URL CLIENT_ID SECRET AUDIENCE")
		os.Exit(2)
	}
	bootstrap, tokenURL, id, secret, audience := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]
	cc := clientcredentials.Config{
		ClientID:       id,
		ClientSecret:   secret,
		TokenURL:       tokenURL,
		EndpointParams: url.Values{"audience": {audience}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client, err := kgo.NewClient(
		kgo.SeedBrokers(bootstrap),
		kgo.SASL(oauth.Oauth(func(ctx context.Context) (oauth.Auth, error) {
			tok, err := cc.Token(ctx)
			if err != nil {
				return oauth.Auth{}, err
			}
			return oauth.Auth{Token: tok.AccessToken}, nil
		})),
		kgo.ConsumeTopics("franz-oauth"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.AllowAutoTopicCreation(),
		kgo.RequestRetries(2),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer client.Close()
	value := "franz-" + audience
	if err := client.ProduceSync(ctx, &kgo.Record{Topic: "franz-oauth", Value: []byte(value)}).FirstErr(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for {
		fetches := client.PollFetches(ctx)
		if errs := fetches.Errors(); len(errs) > 0 {
			fmt.Fprintln(os.Stderr, errs[0].Err)
			os.Exit(1)
		}
		found := false
		fetches.EachRecord(func(r *kgo.Record) { found = found || string(r.Value) == value })
		if found {
			return
		}
	}
}
