/** Small flag images (emoji flags do not render on every system). Decorative: the button names the language. */
export function Flag({ language, className }: { language: 'de' | 'tr'; className?: string }) {
  if (language === 'de') {
    return (
      <svg aria-hidden="true" viewBox="0 0 5 3" className={className}>
        <rect width="5" height="1" y="0" fill="#000" />
        <rect width="5" height="1" y="1" fill="#DD0000" />
        <rect width="5" height="1" y="2" fill="#FFCE00" />
      </svg>
    );
  }
  return (
    <svg aria-hidden="true" viewBox="0 0 30 20" className={className}>
      <rect width="30" height="20" fill="#E30A17" />
      <circle cx="10.5" cy="10" r="5" fill="#fff" />
      <circle cx="11.75" cy="10" r="4" fill="#E30A17" />
      <path fill="#fff" d="M15.6 10l4.52-1.47-2.79 3.85V7.62l2.79 3.85z" />
    </svg>
  );
}
