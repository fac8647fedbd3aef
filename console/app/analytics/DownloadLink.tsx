// "Download CSV" under a report's table: a plain link, so the browser saves the file itself. Every
// table has one, so each link's name also says which report it downloads (hidden words after the
// visible ones, so a voice command "click Download CSV" still finds it).
export function DownloadLink({ href, what }: { href: string; what: string }) {
  return (
    <p className="download">
      <a href={href} download>
        Download CSV<span className="visually-hidden"> of {what}</span>
      </a>
    </p>
  );
}
