//go:build !unix

package game

import "errors"

func mkfifo(string) error { return errors.New("not a unix system") }
