// Offering a text to the player as a file to keep: the saved game line and the review's JSON.

/** Lets the browser download `text` as a file called `name`, of MIME type `type`. */
export function offerFile(text, type, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
