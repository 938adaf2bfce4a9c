package server

import (
	"embed"
	"io/fs"
	"net/http"
)

// web holds the page: plain HTML, CSS and JavaScript modules, no build step.
//
//go:embed web
var web embed.FS

// webRoutes serves the page at / and /g/{id} (a game, with a seat's secret
// after # in the seat links) and its files under /static/.
func (s *Server) webRoutes(mux *http.ServeMux) {
	files, _ := fs.Sub(web, "web") // the directory is embedded: no error
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, files, "index.html")
	}
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /g/{id}", page)
	static := http.StripPrefix("/static/", http.FileServerFS(files))
	mux.Handle("GET /static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		static.ServeHTTP(w, r)
	}))
}
