document.body.textContent = 'demo placeholder';
