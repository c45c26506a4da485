package plots

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"io"
)

// encodePNG writes m as a PNG image. An opaque *image.RGBA, which every figure is (drawn on
// white), is written as 8-bit RGB with the "Up" filter on every row (each byte less the byte
// above it) and zlib at its fastest level: the figures' rows repeat their neighbours over most
// of their width, which that filter turns into runs of zeros, and image/png's encoder would
// spend most of its time trying all five filters on every row and checking the image is opaque
// in a pass of its own. Any other image (a pixel not opaque included) is left to image/png.
func encodePNG(w io.Writer, m image.Image) error {
	fallback := func() error { return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, m) }
	rgba, ok := m.(*image.RGBA)
	if !ok {
		return fallback()
	}
	b := rgba.Rect
	width, height := b.Dx(), b.Dy()
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:4], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:8], uint32(height))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits per sample, colour type 2: RGB

	var idat bytes.Buffer
	z, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return err
	}
	const filterUp = 2
	row := make([]byte, 1+3*width)
	row[0] = filterUp
	var above []byte // the row above, in rgba.Pix; the one above the first is zeros
	for y := range height {
		pix := rgba.Pix[y*rgba.Stride : y*rgba.Stride+4*width]
		out := row[1:]
		for x := 0; x < width; x++ {
			p := pix[4*x : 4*x+4 : 4*x+4]
			if p[3] != 0xff {
				return fallback() // nothing is written to w before the last row
			}
			o := out[3*x : 3*x+3 : 3*x+3]
			if above == nil {
				o[0], o[1], o[2] = p[0], p[1], p[2]
				continue
			}
			q := above[4*x : 4*x+3 : 4*x+3]
			o[0], o[1], o[2] = p[0]-q[0], p[1]-q[1], p[2]-q[2]
		}
		if _, err := z.Write(row); err != nil {
			return err
		}
		above = pix
	}
	if err := z.Close(); err != nil {
		return err
	}

	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return err
	}
	for _, c := range []struct {
		kind string
		data []byte
	}{{"IHDR", ihdr[:]}, {"IDAT", idat.Bytes()}, {"IEND", nil}} {
		if err := writeChunk(w, c.kind, c.data); err != nil {
			return err
		}
	}
	return nil
}

// writeChunk writes one PNG chunk: the length of data, its kind, data and the CRC-32 of kind and
// data.
func writeChunk(w io.Writer, kind string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[0:4], uint32(len(data)))
	copy(head[4:8], kind)
	crc := crc32.NewIEEE()
	crc.Write(head[4:8])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, p := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}
