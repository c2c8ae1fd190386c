// The theming page's form: each input sets its custom property (or the theme) on the widget below it.
const widget = document.getElementById('themed');
const form = document.getElementById('theming');
form.addEventListener('input', (event) => {
  const input = event.target;
  if (input.name === 'theme') widget.setAttribute('theme', input.value);
  else widget.style.setProperty(input.name, `${input.value}${input.dataset.unit ?? ''}`);
});
