package plots

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// TestEncodePNGDecodesToTheSameImage writes images with encodePNG and reads them back with
// image/png's decoder: every pixel comes back as it was, for opaque images (written as RGB by
// encodePNG itself: flat runs, noise, a sub-image whose rows are longer than its width and whose
// bounds do not start at zero, a single pixel) and for images it leaves to image/png (a pixel
// not opaque, an image of another type).
func TestEncodePNGDecodesToTheSameImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	opaque := func(w, h int, fill func(x, y int) color.RGBA) *image.RGBA {
		m := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				m.SetRGBA(x, y, fill(x, y))
			}
		}
		return m
	}
	noise := func(int, int) color.RGBA {
		return color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xff}
	}
	stripes := func(x, y int) color.RGBA {
		if (x/7+y/3)%2 == 0 {
			return color.RGBA{0xff, 0xff, 0xff, 0xff}
		}
		return color.RGBA{0x1f, 0x77, 0xb4, 0xff}
	}
	translucent := opaque(9, 5, noise)
	translucent.SetRGBA(4, 2, color.RGBA{10, 20, 30, 40})
	gray := image.NewGray(image.Rect(0, 0, 6, 4))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(rng.IntN(256))
	}
	tests := []struct {
		name string
		m    image.Image
	}{
		{"flat runs", opaque(150, 40, stripes)},
		{"noise", opaque(33, 17, noise)},
		{"sub-image", opaque(40, 30, noise).SubImage(image.Rect(5, 7, 31, 29))},
		{"one pixel", opaque(1, 1, noise)},
		{"a translucent pixel", translucent},
		{"gray", gray},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := encodePNG(&buf, tt.m); err != nil {
				t.Fatal(err)
			}
			got, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			b := tt.m.Bounds()
			if got.Bounds().Dx() != b.Dx() || got.Bounds().Dy() != b.Dy() {
				t.Fatalf("decoded %v, want the size of %v", got.Bounds(), b)
			}
			for y := range b.Dy() {
				for x := range b.Dx() {
					w := color.NRGBAModel.Convert(tt.m.At(b.Min.X+x, b.Min.Y+y))
					g := color.NRGBAModel.Convert(got.At(got.Bounds().Min.X+x, got.Bounds().Min.Y+y))
					if w != g {
						t.Fatalf("pixel (%d, %d): %v, want %v", x, y, g, w)
					}
				}
			}
		})
	}
}
