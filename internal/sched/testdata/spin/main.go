// Command spin computes until a context's deadline, calling sched.Yield as the long loops of
// the module do, and prints how long it took; sched's test runs it compiled to WebAssembly.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/gdl-lsp/gdl/internal/sched"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	x := uint64(1)
	for ctx.Err() == nil {
		for i := 0; i < 1000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		sched.Yield()
		if time.Since(start) > 20*time.Second {
			fmt.Println("the deadline never fired")
			os.Exit(1)
		}
	}
	fmt.Printf("stopped after %d ms (%d)\n", time.Since(start).Milliseconds(), x&1)
}
