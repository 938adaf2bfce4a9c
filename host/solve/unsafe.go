package solve

import (
	"bufio"
	"io"
	"unsafe"
)

// unsafeBytes views int8 values as bytes, without copying.
func unsafeBytes(v []int8) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v))
}

func newBufReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 1<<16) }
