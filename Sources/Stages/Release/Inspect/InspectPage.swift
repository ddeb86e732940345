/// The inspection page itself: HTML, style and the script that draws `window.INSPECT` (data.js)
/// with Leaflet. Fixed text: everything that varies is in data.js.
enum InspectPage {
    static let html = EmbeddedFiles.index_html
}
