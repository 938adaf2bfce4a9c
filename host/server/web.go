package server

import (
	"bytes"
	"embed"
	"html"
	"io/fs"
	"net/http"
	"time"
)

// web holds the page: plain HTML, CSS and JavaScript modules, no build step.
//
//go:embed web
var web embed.FS

// webRoutes are the routes of the page: at / and /g/{id} (a game, with a
// seat's secret after # in the seat links) and its files under /static/.
// The page's own paths (its files, its links home) begin with the base
// path, which it also names in a meta element for its scripts (api.js).
func (s *Server) webRoutes() []route {
	files, _ := fs.Sub(web, "web") // the directory is embedded: no error
	index := pageHTML(files, s.opt.base)
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	}
	static := http.StripPrefix("/static/", http.FileServerFS(files))
	return []route{
		{"GET /{$}", page},
		{"GET /g/{id}", page},
		{"GET /static/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-cache")
			static.ServeHTTP(w, r)
		}},
	}
}

// pageHTML is index.html with its root-relative paths under base.
func pageHTML(files fs.FS, base string) []byte {
	b, _ := fs.ReadFile(files, "index.html") // embedded: no error
	b = bytes.ReplaceAll(b, []byte(`"/static/`), []byte(`"`+base+`/static/`))
	b = bytes.ReplaceAll(b, []byte(`href="/"`), []byte(`href="`+base+`/"`))
	b = bytes.Replace(b, []byte(`<meta name="matombo-base" content="">`),
		[]byte(`<meta name="matombo-base" content="`+html.EscapeString(base)+`">`), 1)
	return b
}
