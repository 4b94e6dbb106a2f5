const { src, dest, parallel } = require('gulp');

// tsc does not copy assets: the top-level icons and any icon kept beside a node go into dist.
function copyTopLevelIcons() {
	return src('icons/*.{png,svg}').pipe(dest('dist/icons'));
}

function copyNodeIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		allowEmpty: true,
	}).pipe(dest('dist'));
}

exports['build:icons'] = parallel(copyTopLevelIcons, copyNodeIcons);
